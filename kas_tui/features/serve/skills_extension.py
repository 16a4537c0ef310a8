"""The MCP Skills extension (``io.modelcontextprotocol/skills``) beside the three tools.

The specification is ``specification/stable/skills.mdx`` of the
``modelcontextprotocol/ext-skills`` repository. What a served package offers:

- the declaration ``capabilities.extensions["io.modelcontextprotocol/skills"] =
  {"directoryRead": true}`` (with the ``resources`` capability, which the SDK declares);
- ``skills/list``: the package as its one ``Skill`` entry (:mod:`.skill_resources`), or
  no entry when SKILL.md has no usable frontmatter; ``skills/get`` of
  ``skill://<name>/SKILL.md``: the same entry;
- ``resources/read`` of ``skill://<name>/<path>``: the file, through the tools' sandbox
  (the same refusals: ``..``, a symlink leaving, a hidden file, a NUL, what is not a
  regular file);
- ``resources/directory/read`` of ``skill://<name>`` or ``skill://<name>/<folder>``: the
  folder's children, as ``listdir`` lists them;
- in ``resources/list``, SKILL.md, and in ``resources/templates/list``, the template
  ``skill://<name>/{+path}``, for clients that only browse resources.

A read and a directory read are logged in the session's log like the tools' calls (as
``readfile`` and ``listdir``, with the ``uri`` beside the ``path``), a refusal too;
``skills/list`` and ``skills/get`` are not calls on the package's files and are not
logged. Errors are the extension's: ``-32602`` for a URI that names no skill, no
file, no directory or a place outside the package, ``-32603`` for a file that cannot be
read.

The SDK's :class:`~mcp.server.extension.Extension` declares the extension and serves its
new methods; ``resources/read`` (a method of the protocol itself) is answered by
:class:`SkillsServer` overriding :meth:`MCPServer.read_resource`. On the 2025 handshake
(``initialize``) the SDK leaves ``extensions`` out of the capabilities, since the
2025-11-25 schema has no such field; clients of today use that handshake, so the
declaration is put back there (as the official TypeScript SDK sends it).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    PaginatedRequestParams,
    RequestParams,
    Resource,
    ResourceTemplate,
)

from kas_tui.core.fileio import os_reason
from kas_tui.features.agent.sandbox import FILE, FOLDER, OUTSIDE, Location
from kas_tui.features.agent.tools import LISTDIR, OK, READFILE, Outcome, shown_arg
from kas_tui.features.serve.client_session import ServedPackage, Session
from kas_tui.features.serve.skill_resources import (
    DIRECTORY_MIME,
    SKILL_MD,
    SkillFiles,
    mime_type,
    read_content,
    skill_uri,
    uri_path,
)

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
SKILLS_LIST = "skills/list"
SKILLS_GET = "skills/get"
DIRECTORY_READ = "resources/directory/read"

#: The caching hints of ``skills/list`` and ``skills/get``: stale at once (the curator
#: may edit the package while it is served) and never shared across authorizations.
CACHE_HINTS = {"ttlMs": 0, "cacheScope": "private"}


class SkillUriParams(RequestParams):
    """``skills/get``: the URI of a skill's SKILL.md."""

    uri: str


class DirectoryParams(PaginatedRequestParams):
    """``resources/directory/read``: the URI of a directory resource."""

    uri: str


SessionOf = Callable[[Context | None], Session]


class SkillsExtension(Extension):
    """The extension's methods on ``served``; ``session_of`` finds the logged session of
    a request's client."""

    identifier = SKILLS_EXTENSION

    def __init__(self, served: ServedPackage, session_of: SessionOf) -> None:
        self.served = served
        self.session_of = session_of
        self.files = SkillFiles(served.name, served.sandbox)

    @property
    def name(self) -> str:
        return self.served.name

    def settings(self) -> dict[str, Any]:
        return {"directoryRead": True}

    def methods(self) -> Sequence[MethodBinding]:
        return (
            MethodBinding(SKILLS_LIST, PaginatedRequestParams, self._list),
            MethodBinding(SKILLS_GET, SkillUriParams, self._get),
            MethodBinding(DIRECTORY_READ, DirectoryParams, self._read_directory),
        )

    # -- skills/list, skills/get ----------------------------------------------------------

    async def _list(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams
    ) -> dict[str, Any]:
        _no_cursor(params.cursor)
        found = await anyio.to_thread.run_sync(self.files.entry)
        skills = [found.entry] if found.entry is not None else []
        return {"resultType": "complete", "skills": skills, **CACHE_HINTS}

    async def _get(
        self, ctx: ServerRequestContext[Any, Any], params: SkillUriParams
    ) -> dict[str, Any]:
        if params.uri != self.files.skill_md_uri:
            raise _invalid(f"No skill is served at {shown_arg(params.uri)}")
        found = await anyio.to_thread.run_sync(self.files.entry)
        if found.entry is None:
            raise _invalid(f"No skill is served at {params.uri}: {found.problem}")
        return {"resultType": "complete", "skill": found.entry, **CACHE_HINTS}

    # -- resources ------------------------------------------------------------------------

    def owns(self, uri: str) -> bool:
        """Whether ``uri`` is under this skill (other URIs are left to the SDK)."""
        return uri_path(self.name, uri) is not None

    async def read(self, uri: str, context: Context | None) -> list[ReadResourceContents]:
        """``resources/read`` of a URI this skill owns."""
        session = self.session_of(context)
        return await anyio.to_thread.run_sync(self._read, session, uri)

    def _read(self, session: Session, uri: str) -> list[ReadResourceContents]:
        path = uri_path(self.name, uri) or ""
        args = {"uri": uri, "path": path}
        where = self.served.sandbox.locate(path)
        if where.kind != FILE:
            session.call(READFILE, args, resource=True)  # the tool's refusal, logged
            if where.kind == FOLDER:
                raise _invalid(
                    f"{shown_arg(uri)} is a directory resource; list it with {DIRECTORY_READ}"
                )
            raise _invalid(_not_there(uri, where, self.name))
        try:
            content = read_content(self.served.sandbox, where.path)
        except OSError as exc:
            session.call(READFILE, args, resource=True)
            reason = os_reason(exc)
            raise MCPError(INTERNAL_ERROR, f"cannot read {shown_arg(uri)}: {reason}") from None
        session.call(
            READFILE, args, outcome=Outcome(READFILE, OK, content.whole, where.path), resource=True
        )
        served = content.raw if content.text is None else content.text
        return [ReadResourceContents(content=served, mime_type=content.mime)]

    async def _read_directory(
        self, ctx: ServerRequestContext[Any, Any], params: DirectoryParams
    ) -> dict[str, Any]:
        _no_cursor(params.cursor)
        if not self.owns(params.uri):
            raise _invalid(f"No directory resource at {shown_arg(params.uri)}")
        session = self.session_of(Context(request_context=ctx))
        return await anyio.to_thread.run_sync(self._directory, session, params.uri)

    def _directory(self, session: Session, uri: str) -> dict[str, Any]:
        path = uri_path(self.name, uri) or ""
        args = {"uri": uri, "path": path}
        sandbox = self.served.sandbox
        where = sandbox.locate(path)
        if where.kind != FOLDER:
            session.call(LISTDIR, args, resource=True)
            if where.kind == FILE:
                raise _invalid(f"{shown_arg(uri)} is not a directory resource")
            raise _invalid(_not_there(uri, where, self.name))
        try:
            entries = sandbox.listdir(where.path)
        except OSError as exc:
            session.call(LISTDIR, args, resource=True)
            reason = os_reason(exc)
            raise MCPError(INTERNAL_ERROR, f"cannot list {shown_arg(uri)}: {reason}") from None
        listing = Outcome(LISTDIR, OK, "\n".join(entries), where.path, tuple(entries))
        session.call(LISTDIR, args, outcome=listing, resource=True)
        return {"resultType": "complete", "resources": list(self._children(where.path, entries))}

    def _children(self, folder: str, entries: Iterable[str]) -> Iterable[dict[str, Any]]:
        for shown in entries:
            name = shown.rstrip("/")
            child: dict[str, Any] = {
                "uri": skill_uri(self.name, posixpath.join(folder, name)),
                "name": name,
            }
            mime = DIRECTORY_MIME if shown.endswith("/") else mime_type(name)
            if mime:
                child["mimeType"] = mime
            yield child

    def listed(self) -> list[Resource]:
        """SKILL.md as ``resources/list`` shows it (nothing when it is not a skill's)."""
        frontmatter, _ = self.files.frontmatter()
        if frontmatter is None:
            return []
        return [
            Resource(
                uri=self.files.skill_md_uri,
                name=frontmatter["name"],
                description=frontmatter["description"],
                mime_type="text/markdown",
            )
        ]

    def template(self) -> ResourceTemplate:
        """The template of every file's URI, for clients that browse resources."""
        return ResourceTemplate(
            uri_template=skill_uri(self.name) + "/{+path}",
            name=f"{self.name} files",
            description=(
                f"A file of the skill {self.name}, by its path from the skill's root "
                f"({SKILL_MD}, index.md, a folder's index.md...)"
            ),
        )

    async def declare_on_handshake(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Server middleware: the declaration in an ``initialize`` result too."""
        result = await call_next(ctx)
        if ctx.method == "initialize" and isinstance(result, dict):
            capabilities = result.get("capabilities")
            if isinstance(capabilities, dict):
                extensions = capabilities.setdefault("extensions", {})
                if isinstance(extensions, dict):
                    extensions.setdefault(self.identifier, self.settings())
        return result


class SkillsServer(MCPServer):
    """An :class:`MCPServer` serving ``skills``' resources beside its own."""

    def __init__(self, skills: SkillsExtension, **kwargs: Any) -> None:
        super().__init__(extensions=[skills], **kwargs)
        self.skills = skills
        self.middleware.append(skills.declare_on_handshake)

    async def read_resource(self, uri: Any, context: Context | None = None) -> Any:
        if self.skills.owns(str(uri)):
            return await self.skills.read(str(uri), context)
        return await super().read_resource(uri, context)

    async def list_resources(self) -> list[Resource]:
        return [*await super().list_resources(), *self.skills.listed()]

    async def list_resource_templates(self) -> list[ResourceTemplate]:
        return [*await super().list_resource_templates(), self.skills.template()]


def _not_there(uri: str, where: Location, name: str) -> str:
    if where.kind == OUTSIDE:
        return f"{shown_arg(uri)} is outside the skill {name}; only its own files can be read"
    return f"No resource at {shown_arg(uri)}: the skill {name} has no such file or folder"


def _no_cursor(cursor: str | None) -> None:
    if cursor is not None:
        raise _invalid(f"unknown cursor {shown_arg(cursor)}: this server sends none")


def _invalid(message: str) -> MCPError:
    return MCPError(INVALID_PARAMS, message)
