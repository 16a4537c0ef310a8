"""The package as an Agent Skill over MCP: its ``skill://`` URIs, each file as served, and
the ``Skill`` entry of the MCP Skills extension (``io.modelcontextprotocol/skills``).

URIs follow the extension's resource mapping: the package named ``orbit-handbook`` (its
SKILL.md ``name``) is the directory resource ``skill://orbit-handbook``, and each of its
files the resource ``skill://orbit-handbook/<path>``, every path segment percent-encoded
(``my notes.md`` is ``my%20notes.md``); a read decodes them again.

The files are those the tools can read, as ``install`` copies them
(:meth:`Sandbox.walk`): hidden files, so the build and install manifests, symlinks
leaving the package and what is not a regular file are left out. Each is served byte for
byte: a UTF-8 file as text (a BOM and line endings kept), anything else (an image, a PDF,
text in another encoding) as a base64 blob. The one exception is the tools' size cut: a
text longer than :data:`~.client_session.MAX_RESPONSE` characters is cut, with the same
note. The entry's digests and sizes are of exactly the bytes served, so a host that
verifies what it read against them finds them equal.
"""

from __future__ import annotations

import base64
import hashlib
import json
import mimetypes
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from kas_tui.core.fileio import os_reason, read_regular
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.text import decode
from kas_tui.features.agent.sandbox import FILE, Sandbox
from kas_tui.features.serve.client_session import cut

SCHEME = "skill://"
#: The file every skill has at its root, and the last segment of the skill's URI.
SKILL_MD = "SKILL.md"
#: The MIME type of a directory resource.
DIRECTORY_MIME = "inode/directory"

#: Types of a package's text files that Python's table may not know.
_TEXT_TYPES = {"md": "text/markdown", "yaml": "application/yaml", "yml": "application/yaml"}

#: A file's identity on disk: path, size, modification time, inode. Unchanged, its
#: digest is not computed again.
_Key = tuple[str, int, int, int]


def skill_uri(name: str, path: str = "") -> str:
    """The URI of package-relative ``path`` (``''``: the skill's root directory)."""
    uri = SCHEME + quote(name, safe="")
    if path:
        uri += "/" + "/".join(quote(part, safe="") for part in path.split("/"))
    return uri


def uri_path(name: str, uri: str) -> str | None:
    """The package path ``uri`` names, decoded but not checked (the sandbox does that):
    ``''`` for the root; ``None`` when ``uri`` is not under skill ``name``."""
    root = skill_uri(name)
    if uri == root:
        return ""
    if uri.startswith(root + "/"):
        return unquote(uri[len(root) + 1 :])
    return None


def mime_type(path: str) -> str | None:
    """The MIME type a file's name tells (``text/markdown`` for ``.md``), if any."""
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return _TEXT_TYPES.get(suffix) or mimetypes.guess_type(path, strict=False)[0]


@dataclass(frozen=True)
class Content:
    """A file as ``resources/read`` serves it.

    ``text`` is the text served (cut when too long), ``None`` for a blob; ``whole`` is
    what the client received before any cut, as the session log counts it (the text, or
    the blob's base64).
    """

    path: str
    raw: bytes
    text: str | None
    whole: str
    mime: str

    @property
    def data(self) -> bytes:
        """The bytes served: what the entry's digest and size are of."""
        if self.text is None:
            return self.raw
        return self.raw if self.text == self.whole else self.text.encode("utf-8")


def read_content(sandbox: Sandbox, path: str) -> Content:
    """The content of file ``path`` (package-relative, already located). Raises OSError."""
    raw = read_regular(sandbox.full(path))
    try:
        decode(raw)  # the tools' test of text: UTF-8 without NUL bytes
    except FormatError:
        blob = base64.b64encode(raw).decode("ascii")
        return Content(path, raw, None, blob, mime_type(path) or "application/octet-stream")
    whole = raw.decode("utf-8")  # a BOM stays: the text is the file's bytes exactly
    return Content(path, raw, cut(whole), whole, mime_type(path) or "text/plain")


@dataclass(frozen=True)
class Entry:
    """The skill's ``Skill`` entry (``entry``), or why there is none (``problem``)."""

    uri: str
    entry: dict[str, Any] | None
    problem: str = ""


class SkillFiles:
    """The package's files as skill resources, with their digests (remembered while a
    file is unchanged, so listing the skill again reads only what changed)."""

    def __init__(self, name: str, sandbox: Sandbox) -> None:
        self.name = name
        self.sandbox = sandbox
        self._digests: dict[_Key, tuple[str, int]] = {}

    @property
    def skill_md_uri(self) -> str:
        return skill_uri(self.name, SKILL_MD)

    def entry(self) -> Entry:
        """The ``Skill`` entry: SKILL.md's frontmatter as JSON, and every file with the
        digest and size of what is served."""
        uri = self.skill_md_uri
        frontmatter, problem = self.frontmatter()
        if frontmatter is None:
            return Entry(uri, None, problem)
        entry = {"uri": uri, "frontmatter": frontmatter, "resources": self.resources()}
        return Entry(uri, entry)

    def frontmatter(self) -> tuple[dict[str, Any] | None, str]:
        """SKILL.md's frontmatter as a JSON object, verbatim; or ``None`` and why not."""
        if self.sandbox.kind_of(SKILL_MD) != FILE:
            return None, f"the package has no {SKILL_MD} at its root"
        try:
            parsed = fm.parse(decode(read_regular(self.sandbox.full(SKILL_MD))).text)
        except FormatError as exc:
            return None, f"{SKILL_MD}: {exc.message}"
        except OSError as exc:
            return None, f"cannot read {SKILL_MD}: {os_reason(exc)}"
        if parsed is None:
            return None, f"{SKILL_MD} has no YAML frontmatter"
        try:
            # YAML timestamps are kept as written; dates as text, as they are in the file
            data = json.loads(json.dumps(parsed.data, default=str, allow_nan=False))
        except (TypeError, ValueError) as exc:
            return None, f"{SKILL_MD}: its frontmatter cannot be written as JSON ({exc})"
        name, description = data.get("name"), data.get("description")
        if not isinstance(name, str) or not name.strip():
            return None, f"{SKILL_MD} has no name"
        if not isinstance(description, str) or not description.strip():
            return None, f"{SKILL_MD} has no description"
        if name != self.name:
            return None, (
                f"{SKILL_MD}'s name is {name!r}, not {self.name!r} as when serving started; "
                "restart kas-tui serve"
            )
        return data, ""

    def resources(self) -> list[dict[str, Any]]:
        """``{uri, digest, size}`` of every file (one that cannot be read is left out:
        it cannot be served either)."""
        seen: dict[_Key, tuple[str, int]] = {}
        out = []
        for path in self.sandbox.walk()[0]:
            try:
                st = os.stat(self.sandbox.full(path))
                key = (path, st.st_size, st.st_mtime_ns, st.st_ino)
                digest = self._digests.get(key)
                if digest is None:
                    data = read_content(self.sandbox, path).data
                    digest = ("sha256:" + hashlib.sha256(data).hexdigest(), len(data))
            except OSError:
                continue
            seen[key] = digest
            out.append({"uri": skill_uri(self.name, path), "digest": digest[0], "size": digest[1]})
        self._digests = seen  # only the files there now
        return out
