"""A Mintlify page made from an OpenAPI spec, shown as its site shows it.

Such a page's frontmatter names an operation (``openapi: "PUT /taxes/{code}"``,
``openapi: "v3-openapi GET /api/v1/runs"``, naming the spec's file) and its body holds
little or nothing: the site renders the endpoint from the spec. Built as written, it
was an empty document described as "Document imported from update.mdx.". Here the
operation's reference is written below the page's own text: its method and path, its
summary and description, its parameters, its request body's fields and its responses,
read from the spec (JSON or YAML, local ``$ref`` followed). The spec is the file the
page names, else one the site's config names (``docs.json``'s ``api.openapi`` and any
``openapi`` of its navigation), else an ``openapi.*`` file beside the config. When the
spec is not in the source (a URL), the page says which endpoint it documents and
where its reference lives.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any

import yaml

Read = Callable[[str], "str | None"]
_METHODS = ("get", "post", "put", "patch", "delete", "head", "options", "trace")
_OPERATION = re.compile(
    r"^\s*(?:(?P<spec>\S+)\s+)?(?P<method>get|post|put|patch|delete|head|options|trace|webhook)"
    r"\s+(?P<path>\S+)\s*$",
    re.IGNORECASE,
)
_SPEC_EXTS = (".json", ".yaml", ".yml")
#: How deep a ``$ref`` chain is followed.
_MOST_REFS = 8


def page_operation(frontmatter: dict[str, Any] | None) -> tuple[str | None, str, str] | None:
    """(the spec's name or ``None``, METHOD, path) a page's ``openapi`` names."""
    value = (frontmatter or {}).get("openapi")
    match = _OPERATION.match(value) if isinstance(value, str) else None
    if match is None:
        return None
    return match.group("spec"), match.group("method").upper(), match.group("path")


def config_specs(config: dict[str, Any] | None, folder: str) -> list[str]:
    """The specs a site's config names, in order: local paths (from ``folder``) and URLs."""
    found: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif key == "openapi" and isinstance(value, str) and value.strip():
            text = value.strip()
            local = not re.match(r"^[a-z]+://", text)
            found.append(
                posixpath.normpath(posixpath.join(folder, text.lstrip("/"))) if local else text
            )

    walk(config)
    return list(dict.fromkeys(found))


class OpenApiPages:
    """The operations of the site's specs, each spec read once."""

    def __init__(self, read: Read, files: Collection[str], folder: str, named: list[str]) -> None:
        self.read, self.files, self.folder = read, files, folder
        beside = sorted(
            f
            for f in files
            if posixpath.dirname(f) == folder
            and posixpath.basename(f).lower().startswith("openapi")
            and f.lower().endswith(_SPEC_EXTS)
        )
        self.named = [*named, *(f for f in beside if f not in named)]
        self._specs: dict[str, Any] = {}

    def reference(self, frontmatter: dict[str, Any] | None) -> str | None:
        """The Markdown the site shows for the page's operation; ``None`` when the page
        names none."""
        operation = page_operation(frontmatter)
        if operation is None:
            return None
        hint, method, path = operation
        for spec in self._candidates(hint):
            data = self._spec(spec)
            item = (data.get("paths") or {}).get(path) if isinstance(data, dict) else None
            if method == "WEBHOOK" and isinstance(data, dict):
                item = (data.get("webhooks") or {}).get(path)
            op = (
                item.get("post" if method == "WEBHOOK" else method.lower())
                if isinstance(item, dict)
                else None
            )
            if isinstance(op, dict):
                return _reference(data, method, path, op, item)
        remote = [s for s in self.named if "://" in s]
        where = f"the OpenAPI spec at {remote[0]}" if remote else "an OpenAPI spec"
        named = next(
            (
                str(v).strip()
                for k in ("title", "sidebarTitle")
                if (v := (frontmatter or {}).get(k))
            ),
            "",
        )
        what = f"{named.rstrip('.')} with" if named else "This page documents"
        return (
            f"{what} the `{method} {path}` endpoint. Its parameters and responses come "
            f"from {where}, which is not in the source."
        )

    def _candidates(self, hint: str | None) -> list[str]:
        local = [s for s in self.named if "://" not in s]
        if hint is None:
            return local
        by_name = [
            f
            for f in self.files
            if f.lower().endswith(_SPEC_EXTS)
            and (
                posixpath.splitext(posixpath.basename(f))[0] == hint
                or posixpath.basename(f) == hint
                or f == hint
            )
        ]
        return [*by_name, *(s for s in local if s not in by_name)]

    def _spec(self, rel: str) -> Any:
        if rel not in self._specs:
            text = self.read(rel) if rel in self.files else None
            data: Any = None
            if text is not None:
                try:
                    data = (
                        json.loads(text) if rel.lower().endswith(".json") else yaml.safe_load(text)
                    )
                except (ValueError, yaml.YAMLError):
                    data = None
            self._specs[rel] = data
        return self._specs[rel]


def _resolve(spec: Any, value: Any) -> Any:
    """``value``, its local ``$ref`` (``#/components/schemas/Tax``) followed."""
    for _hop in range(_MOST_REFS):
        ref = value.get("$ref") if isinstance(value, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return value
        target: Any = spec
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, dict) else None
        value = target
    return value


def _line(text: Any) -> str:
    return " ".join(str(text).split()) if text else ""


def _reference(spec: Any, method: str, path: str, op: dict, item: dict) -> str:
    out = [f"`{method} {path}`"]
    if _line(op.get("summary")):
        out.append(
            _line(op["summary"]) + ("" if str(op["summary"]).rstrip().endswith(".") else ".")
        )
    if op.get("description"):
        out.append(str(op["description"]).strip())
    params = [
        _resolve(spec, p) for p in [*(item.get("parameters") or []), *(op.get("parameters") or [])]
    ]
    rows = []
    for p in params:
        if isinstance(p, dict) and p.get("name"):
            schema = _resolve(spec, p.get("schema")) or {}
            kind = schema.get("type") if isinstance(schema, dict) else None
            said = ", ".join(
                x for x in (p.get("in"), kind, "required" if p.get("required") else "") if x
            )
            rows.append(f"- `{p['name']}` ({said}): {_line(p.get('description'))}".rstrip(": "))
    if rows:
        out += ["## Parameters", "\n".join(rows)]
    body = _resolve(spec, op.get("requestBody"))
    content = body.get("content") if isinstance(body, dict) else None
    if isinstance(content, dict) and content:
        kind, media = next(iter(content.items()))
        schema = _resolve(spec, media.get("schema") if isinstance(media, dict) else None)
        fields = _fields(spec, schema)
        out += [
            "## Request body",
            f"`{kind}`"
            + (": " + _line(body.get("description")) if body.get("description") else ""),
        ]
        if fields:
            out.append("\n".join(fields))
    responses = op.get("responses")
    if isinstance(responses, dict) and responses:
        lines = []
        for code, response in responses.items():
            response = _resolve(spec, response)
            said = _line(response.get("description")) if isinstance(response, dict) else ""
            lines.append(f"- `{code}`: {said}".rstrip(": "))
        out += ["## Responses", "\n".join(lines)]
    return "\n\n".join(out)


def _fields(spec: Any, schema: Any, depth: int = 0) -> list[str]:
    """A request body schema's top-level fields, one line each (an object wrapping one
    object, ``{"tax": {...}}``, shows the inner one's fields below it)."""
    if not isinstance(schema, dict):
        return []
    props = schema.get("properties")
    if not isinstance(props, dict):
        return []
    required = set(schema.get("required") or [])
    lines = []
    for name, prop in props.items():
        prop = _resolve(spec, prop)
        kind = prop.get("type") if isinstance(prop, dict) else None
        said = ", ".join(x for x in (kind, "required" if name in required else "") if x)
        text = _line(prop.get("description")) if isinstance(prop, dict) else ""
        lines.append(
            "  " * depth
            + f"- `{name}`"
            + (f" ({said})" if said else "")
            + (f": {text}" if text else "")
        )
        if depth == 0 and len(props) == 1:
            lines += _fields(spec, prop, depth + 1)
    return lines
