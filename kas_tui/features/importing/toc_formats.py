"""What :mod:`toc` reads with: YAML with line numbers, Docusaurus sidebars, and what
tells an address from a path.

``load_lined`` reads YAML (JSON too) as dicts and lists that know their lines; tags it
does not know (MkDocs's ``!!python/name:...``, ``!ENV``) read as ``None``.
``docusaurus_roots`` reads ``sidebars.json``, or ``sidebars.js`` when the object it
exports is plain data (no code: no spreads, calls, functions or variables).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any

import yaml

from kas_tui.core.okf.links import SCHEME


class LinedDict(dict):  # type: ignore[type-arg]
    """A YAML mapping; ``line`` where it starts, ``lines`` each key's line."""

    line: int | None = None
    lines: dict[Any, int]


class LinedList(list):  # type: ignore[type-arg]
    """A YAML sequence; ``line`` where it starts, ``lines`` each item's line."""

    line: int | None = None
    lines: list[int]


class _Loader(yaml.SafeLoader):
    """A safe loader whose mappings and sequences carry their lines."""


def _unknown(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:  # noqa: ARG001
    return None


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Any:
    data = LinedDict()
    data.line = node.start_mark.line + 1
    data.lines = {}
    yield data
    data.update(loader.construct_mapping(node))
    for key, _value in node.value:
        if isinstance(key, yaml.ScalarNode):
            data.lines.setdefault(loader.construct_object(key), key.start_mark.line + 1)


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> Any:
    data = LinedList()
    data.line = node.start_mark.line + 1
    data.lines = [item.start_mark.line + 1 for item in node.value]
    yield data
    data.extend(loader.construct_sequence(node))


_Loader.add_multi_constructor("", _unknown)
_Loader.add_constructor("tag:yaml.org,2002:map", _mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _sequence)


def load_lined(text: str) -> tuple[Any, tuple[int, str] | None]:
    """``text``'s YAML, and ``None``; or ``None`` and (line, what is wrong)."""
    try:
        return yaml.load(text, Loader=_Loader), None  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        return None, ((mark.line + 1) if mark else 1, str(exc.problem or exc.context or exc))
    except yaml.YAMLError as exc:
        return None, (1, str(exc))


# --- Docusaurus ----------------------------------------------------------------------------

_PAGE = (".md", ".mdx")
#: An address (``https:``, ``mailto:``, ``//host``), not a path in the source: no entry.
URL = re.compile(f"{SCHEME.pattern}|^//")
#: An ATX heading line (``## Title``, ``# [Title](page.md)``): its marks and its text.
MD_HEADING = re.compile(r"^(#{1,6})(?:[ \t]+|(?=\[))(.*?)(?:[ \t]+#+)?[ \t]*$")
#: The pages of a wiki or a Sphinx project.
MARKDOWN_PAGES = (".md", ".markdown")
_NUMBER_PREFIX = re.compile(r"^\d+[-_.]\s*")


def docusaurus_roots(
    path: str,
    text: str,
    base: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any]:
    """The sidebars in ``text`` (the file ``path``) as nodes made by ``node(title,
    path, children, line)``; doc ids are pages in ``base`` (the ``docs`` folder)."""
    if path.lower().endswith(".js"):
        found = js_object(text)
        if found is None:
            problems.append(
                f"{path}:1: its sidebars are built by code (no plain object after "
                "module.exports =): not read; ship a sidebars.json to order the pages"
            )
            return []
        text = found
    data, error = load_lined(text)
    if error is not None:
        try:
            data = json.loads(text)
        except ValueError:
            problems.append(f"{path}:{error[0]}: not valid JSON ({error[1]}): not read; fix it")
            return []
    if not isinstance(data, dict):
        problems.append(f"{path}:1: holds no sidebars object: not read; map sidebar ids to items")
        return []
    reader = _Sidebars(path, base, files, problems, node)
    sidebars = [
        (str(name), reader.items(value if isinstance(value, list) else [value]), _line(data, name))
        for name, value in data.items()
    ]
    if len(sidebars) == 1:
        return sidebars[0][1]
    return [node(name, None, items, line) for name, items, line in sidebars if items]


def _line(container: Any, key: Any) -> int | None:
    lines = getattr(container, "lines", None)
    if isinstance(lines, dict):
        return lines.get(key)
    if isinstance(lines, list) and isinstance(key, int) and key < len(lines):
        return lines[key]
    return None


class _Sidebars:
    def __init__(
        self,
        path: str,
        base: str,
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
    ) -> None:
        self.path, self.base, self.files, self.problems, self.node = (
            path,
            base,
            files,
            problems,
            node,
        )
        self._ids: dict[str, str] | None = None

    def doc(self, doc_id: str, line: int | None) -> str | None:
        doc_id = doc_id.strip().strip("/")
        for ext in _PAGE:
            candidate = posixpath.join(self.base, doc_id + ext)
            if candidate in self.files:
                return candidate
        if self._ids is None:  # ids without the number prefixes Docusaurus strips
            self._ids = {}
            for f in sorted(self.files):
                if f.startswith(self.base + "/") and f.lower().endswith(_PAGE):
                    rel = posixpath.splitext(f[len(self.base) + 1 :])[0]
                    stripped = "/".join(_NUMBER_PREFIX.sub("", p) for p in rel.split("/"))
                    self._ids.setdefault(stripped, f)
        found = self._ids.get(doc_id)
        if found is None:
            self.problems.append(
                f"{self.path}:{line}: names the doc {doc_id}, which is not in the source "
                f"(no {self.base}/{doc_id}.md or .mdx); fix the id or add the page"
            )
        return found

    def items(self, values: list[Any]) -> list[Any]:
        nodes: list[Any] = []
        for index, value in enumerate(values):
            line = getattr(value, "line", None) or _line(values, index)
            if isinstance(value, str):
                page = self.doc(value, line)
                if page:
                    nodes.append(self.node(None, page, [], line))
            elif isinstance(value, dict) and "type" not in value:  # {"Label": [ids]}
                for label, inner in value.items():
                    children = self.items(inner if isinstance(inner, list) else [inner])
                    nodes.append(self.node(str(label), None, children, _line(value, label) or line))
            elif isinstance(value, dict):
                nodes += self.typed(value, line)
        return nodes

    def typed(self, value: dict[str, Any], line: int | None) -> list[Any]:
        kind = value.get("type")
        label = value.get("label")
        label = str(label) if label is not None else None
        if kind in ("doc", "ref") and isinstance(value.get("id"), str):
            page = self.doc(value["id"], line)
            return [self.node(label, page, [], line)] if page else []
        if kind == "category":
            link = value.get("link")
            page = None
            if isinstance(link, dict) and link.get("type") == "doc" and link.get("id"):
                page = self.doc(str(link["id"]), _line(value, "link") or line)
            items = value.get("items")
            children = self.items(items if isinstance(items, list) else [])
            return [self.node(label, page, children, line)] if page or children else []
        if kind == "autogenerated":
            folder = posixpath.normpath(posixpath.join(self.base, str(value.get("dirName", "."))))
            inside = sorted(
                f for f in self.files if f.startswith(folder + "/") and f.lower().endswith(_PAGE)
            )
            return [self.node(None, f, [], line) for f in inside]
        return []  # "link" (a URL) and "html" are no pages


# --- sidebars.js ---------------------------------------------------------------------------


def js_object(text: str) -> str | None:
    """The object ``module.exports`` (or ``export default``) gives, directly or through
    a ``const``, as YAML-readable text at its own lines (all else blanked); ``None``
    when there is none or it is built by code."""
    code = _blank(text, strings=False)
    exported = re.search(r"\bmodule\.exports\s*=\s*|\bexport\s+default\s+", code)
    if exported is None:
        return None
    start = exported.end()
    if code[start : start + 1] != "{":
        name = re.match(r"[A-Za-z_$][\w$]*", code[start:])
        if name is None:
            return None
        declared = re.search(
            rf"\b(?:const|let|var)\s+{re.escape(name.group())}\s*(?::[^=]*)?=\s*", code
        )
        if declared is None or code[declared.end() : declared.end() + 1] != "{":
            return None
        start = declared.end()
    end = _closing(code, start)
    if end is None:
        return None
    bare = _blank(code[start : end + 1], strings=True)
    if re.search(r"\.\.\.|=>|\bfunction\b|[\w$)\]]\s*\(|`", bare):
        return None  # spreads, calls, functions, template strings: code, not data
    for word in re.findall(r"[:\[,]\s*([A-Za-z_$][\w$.]*)\s*(?=[,}\]])", bare):
        if word not in ("true", "false", "null"):
            return None  # a variable
    head = "".join("\n" if c == "\n" else " " for c in code[:start])
    return head + code[start : end + 1]


def _blank(text: str, *, strings: bool) -> str:
    """``text`` with its comments (and, with ``strings``, string contents) blanked
    by spaces, line breaks kept."""
    out = list(text)
    index, quote = 0, ""
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                if strings:
                    out[index] = " "
                    if index + 1 < len(text) and text[index + 1] != "\n":
                        out[index + 1] = " "
                index += 2
                continue
            if char == quote:
                quote = ""
            elif strings and char != "\n":
                out[index] = " "
        elif char in "'\"`":
            quote = char
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            out[index:end] = " " * (end - index)
            index = end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = len(text) if end < 0 else end + 2
            out[index:end] = ["\n" if c == "\n" else " " for c in text[index:end]]
            index = end
            continue
        index += 1
    return "".join(out)


def _closing(code: str, start: int) -> int | None:
    """Where the brace opened at ``start`` closes (strings skipped)."""
    depth, quote, index = 0, "", start
    while index < len(code):
        char = code[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"`":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None
