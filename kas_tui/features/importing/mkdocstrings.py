"""mkdocstrings' ``::: fastapi.APIRouter`` blocks read from the source's Python code,
never imported or run, where they had stayed a line naming the object: FastAPI's 22
reference pages each showed a sentence and ``::: fastapi.X`` with its options, nothing of
the classes, their parameters or their methods.

What a block shows, as mkdocstrings-python draws it by default: the object's signature
in a code block and its docstring (Markdown, as mkdocstrings reads it), then its members,
each under a heading one level down (``## `get```): those ``options: members:`` lists, in
its order; else every public one (a single leading underscore is private) with a
docstring, alphabetically, as ``members_order`` and ``show_if_no_docstring`` default to
(the handler's ``options`` in the site config, then the block's, say otherwise);
``members: false``, none. A module's members are what it defines, a class's its own.
Modules are looked for below the site's config folder and each folder above it, with
their ``src/``, and in the handler's ``paths`` (:func:`.python_objects.python_paths`).

What cannot be shown stays as written, and a note says why by line: the module is not
in the source (``docs/`` built alone: build the repository), or it does not define the
name where the code can be read.
"""

from __future__ import annotations

import ast
import copy
import os
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from inspect import cleandoc
from typing import Any

import yaml

from kas_tui.features.importing.includes import IncludeProblem
from kas_tui.features.importing.python_objects import (
    Found,
    Reader,
    SourceFiles,
    described_node,
    module_file,
    own_members,
    python_paths,
)
from kas_tui.features.importing.toc_formats import load_lined

#: A block: ``::: dotted.name`` at a line's start, its options indented below.
_BLOCK = re.compile(r"^:::[ \t]+([A-Za-z_][\w.]*)[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
#: Most objects one page shows (a module's members' members included).
MOST_OBJECTS = 2000
#: How an object's signature opens, by its kind, as the code writes it.
_OPENING = {"class": "class ", "exception": "class ", "function": "def ", "method": "def "}


@dataclass
class ApiReader:
    """Reads the objects mkdocstrings blocks name from a source's Python files: ``root``
    the source (absolute), ``config_dir`` the site config's folder (source-relative),
    ``paths`` the handler's own (relative to it)."""

    root: str
    config_dir: str = ""
    paths: tuple[str, ...] = ()
    #: the handler's options for every block (``members_order``, ``show_if_no_docstring``)
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.files = SourceFiles(self.root)
        extra = [os.path.normpath(os.path.join(self.config_dir, p)) for p in self.paths]
        inside = [e for e in extra if not e.startswith("..")]
        self.roots = python_paths(self.config_dir, inside, self.files.is_dir)
        self.reader = self.files.reader(self.roots)

    def find(self, dotted: str) -> Found | str:
        """The object ``dotted`` names, or why it cannot be read."""
        found = self.reader.find_any(dotted)
        if found is not None:
            return found
        if module_file(dotted, self.roots, self.files.is_file) is None:
            return "its module is not in the source (build the folder that holds its code)"
        return (
            "the source's code neither defines it nor imports it from a module of the "
            "source (an object of another project, re-exported here, is not read: kas-tui "
            "reads the source's code and never runs it)"
        )


def shown_api(text: str, api: ApiReader) -> tuple[str, list[IncludeProblem]]:
    """``text`` (a MkDocs page) with each mkdocstrings block drawn (see the module), and
    a problem for each that cannot be."""
    if "::: " not in text:
        return text, []
    lines = text.split("\n")
    out: list[str] = []
    problems: list[IncludeProblem] = []
    budget = [MOST_OBJECTS]
    fence = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        opened = _FENCE.match(line)
        if opened is not None and (not fence or opened.group(1).startswith(fence)):
            fence = "" if fence else opened.group(1)
        block = None if fence else _BLOCK.match(line)
        if block is None:
            out.append(line)
            i += 1
            continue
        end = i + 1
        while end < len(lines) and (not lines[end].strip() or lines[end][:1] in " \t"):
            end += 1
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1  # the blank lines after it are the page's
        name = block.group(1)
        found = api.find(name)
        if isinstance(found, str):
            problems.append(IncludeProblem(i + 1, name, f"::: {name} is not shown: {found}"))
            out += lines[i:end]
        else:
            options = {**api.options, **_options(lines[i + 1 : end])}
            out += drawn(found, options, api.reader, 2, budget)
        i = end
    return "\n".join(out), problems


def _options(block: list[str]) -> dict[str, Any]:
    """A block's ``options:`` mapping (its other keys, ``handler``..., left out)."""
    if not block:
        return {}
    try:
        data = yaml.safe_load(textwrap.dedent("\n".join(block)))
    except (yaml.YAMLError, RecursionError, ValueError):
        return {}
    options = data.get("options") if isinstance(data, dict) else None
    return options if isinstance(options, dict) else {}


def drawn(
    found: Found, options: dict[str, Any], reader: Reader, level: int, budget: list[int]
) -> list[str]:
    """Markdown lines of ``found``: its signature, its docstring, then its members, each
    under a heading of ``level``."""
    budget[0] -= 1
    out: list[str] = []
    signature, documented = found.signature, []
    if found.kind != "module":
        opening = _OPENING.get(found.kind, "property " if found.kind == "property" else "")
        signature, documented = typed_docs(found)
        out += ["```python", f"{opening}{found.name}{signature}", "```", ""]
    if found.doc.strip():
        out += [*cleandoc(found.doc).split("\n"), ""]
    if documented:
        out += ["**Parameters:**", "", *documented, ""]
    inherited = {k: v for k, v in options.items() if k != "members"}  # the rest hold below
    for member in members(found, options):
        if budget[0] <= 0:
            break
        out += [f"{'#' * min(level, 6)} `{member.name}`", ""]
        out += drawn(member, inherited, reader, level + 1, budget)
    return out


def members(found: Found, options: dict[str, Any]) -> list[Found]:
    """The members of ``found`` a block's ``options`` ask for (see the module)."""
    if found.kind not in ("module", "class", "exception"):
        return []
    asked = options.get("members", True)
    if asked is False:
        return []
    own = own_members(found)
    if isinstance(asked, list):
        return [own[n] for n in _names(asked) if n in own]
    undocumented = options.get("show_if_no_docstring") is True
    public = [
        m
        for name, m in own.items()
        if not re.match(r"_[^_]", name)
        and (m.doc.strip() or (undocumented and not name.startswith("__")))
        and m.name != "__init__"
    ]
    if str(options.get("members_order", "alphabetical")) == "source":
        return public
    return sorted(public, key=lambda m: m.name)


def _names(items: Iterable[Any]) -> list[str]:
    return [str(item) for item in items if isinstance(item, str | int)]


def api_reader(root: str, config: str, read: Callable[[str], str | None]) -> ApiReader:
    """The :class:`ApiReader` of a MkDocs site whose config is ``config`` (source-relative):
    its folder, and the python handler's ``paths`` its ``plugins`` give."""
    config_dir = os.path.dirname(config)
    paths: tuple[str, ...] = ()
    options: dict[str, Any] = {}
    data, _problem = load_lined(read(config) or "")  # tags (!!python/name:...) as nothing
    plugins = data.get("plugins") if isinstance(data, dict) else None
    for plugin in plugins if isinstance(plugins, list) else [plugins]:
        if isinstance(plugin, dict) and isinstance(plugin.get("mkdocstrings"), dict):
            handlers = plugin["mkdocstrings"].get("handlers")
            python = handlers.get("python") if isinstance(handlers, dict) else None
            given = python.get("paths") if isinstance(python, dict) else None
            if isinstance(given, list):
                paths = tuple(str(p) for p in given if isinstance(p, str))
            said = python.get("options") if isinstance(python, dict) else None
            if isinstance(said, dict):
                options = {str(k): v for k, v in said.items()}
    return ApiReader(root, config_dir, paths, options)


def typed_docs(found: Found) -> tuple[str, list[str]]:
    """``found``'s signature without the ``Doc(...)`` its parameters' ``Annotated`` types
    carry (PEP 727, as FastAPI writes every parameter), and a list item for each such
    parameter: its name, type, default and words, as griffe-typingdoc shows them; the
    signature as it is, and no items, when none carries one."""
    node, kind = found.node, found.kind
    if isinstance(node, ast.ClassDef):  # its signature is its __init__'s
        node = next(
            (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
            None,
        )
        kind = "method"
    if (
        not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        or "Doc(" not in found.signature
    ):
        return found.signature, []
    args = copy.deepcopy(node.args)
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(
        zip(
            [a.arg for a in positional[len(positional) - len(args.defaults) :]],
            args.defaults,
            strict=True,
        )
    )
    defaults.update(
        (a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    )
    items: list[str] = []
    for arg in [*positional, *args.kwonlyargs]:
        plain, words = _without_doc(arg.annotation)
        if words is None:
            continue
        arg.annotation = plain
        typed = f"`{_unparsed(plain)}`" if plain is not None else ""
        default = f"default `{_unparsed(defaults[arg.arg])}`" if arg.arg in defaults else ""
        said = ", ".join(p for p in (typed, default) if p)
        first, *rest = cleandoc(words).split("\n") or [""]
        items.append(f"- `{arg.arg}`" + (f" ({said})" if said else "") + f": {first}")
        items += [f"  {line}" if line.strip() else "" for line in rest]
    plain_node = copy.copy(node)  # the signature without the Doc(...) read as any is
    plain_node.args = args
    drawn_plain = described_node(plain_node, found.name, kind, found.module)
    return (drawn_plain.signature if drawn_plain is not None else found.signature), items


def _without_doc(annotation: ast.expr | None) -> tuple[ast.expr | None, str | None]:
    """(the type, the words) of ``Annotated[T, Doc("words"), ...]``; (``annotation``,
    ``None``) for any other annotation."""
    if not (
        isinstance(annotation, ast.Subscript)
        and _unparsed(annotation.value).rsplit(".", 1)[-1] == "Annotated"
        and isinstance(annotation.slice, ast.Tuple)
        and annotation.slice.elts
    ):
        return annotation, None
    first, *extra = annotation.slice.elts
    for item in extra:
        if (
            isinstance(item, ast.Call)
            and _unparsed(item.func).rsplit(".", 1)[-1] == "Doc"
            and item.args
            and isinstance(item.args[0], ast.Constant)
            and isinstance(item.args[0].value, str)
        ):
            return first, item.args[0].value
    return annotation, None


def _unparsed(node: ast.AST | None) -> str:
    try:
        return ast.unparse(node) if node is not None else ""
    except (ValueError, RecursionError):
        return "..."
