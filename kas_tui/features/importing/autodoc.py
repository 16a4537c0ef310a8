"""Sphinx's autodoc read from the source's Python files, never imported or run: an
``.. autoclass:: werkzeug.wrappers.Request`` shows what its site shows, the object's
signature and docstring (and its members' when ``:members:`` asks), where it showed
only the name (werkzeug's middleware pages were seven stubs of one line each).

- **Where.** A dotted name's module is found below the folders a Sphinx project imports
  from: its ``conf.py``'s folder and each folder above it in the source, each with its
  ``src/`` and ``lib/``, and the folders ``conf.py`` puts on ``sys.path``
  (:func:`python_paths`). A name a package's ``__init__.py`` imports from a module of its
  own (``from .app import Flask``) is read where it is defined.
- **What.** A module's, class's or function's docstring; a class's signature is its
  ``__init__``'s; an attribute's is the ``#:`` comment above it or the string below it.
  Members as autodoc picks them: ``:members:`` (all, or those it lists), public ones
  with a docstring unless ``:undoc-members:``, ``:private-members:``,
  ``:special-members:``, ``:exclude-members:``, a module's ``__all__``; ordered as
  ``:member-order:`` or ``autodoc_member_order`` says (alphabetical by default).
- **How shown.** As reStructuredText for the page to read (:func:`described`): Sphinx's
  own object directives (``.. class:: Request(environ)``), each docstring indented in
  its directive. A NumPy docstring's underlined sections (``Parameters`` over
  ``----------``) are rubrics, which a directive's content may hold where a section may
  not.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from inspect import cleandoc

from kas_tui.core.fileio import read_regular

#: The autodoc directives, and the object directive each shows its object as.
AUTODOC = {
    "automodule": "module",
    "autoclass": "class",
    "autoexception": "exception",
    "autofunction": "function",
    "automethod": "method",
    "autoattribute": "attribute",
    "autodata": "data",
    "autoproperty": "property",
    "autodecorator": "decorator",
}
#: Files larger than this are not read for docstrings (a generated module).
_MAX_BYTES = 4 * 1024 * 1024
#: How many imports a name is followed through to where it is defined.
_MAX_HOPS = 6
#: A NumPy docstring's section: a title over a line of dashes as long.
_UNDERLINE = re.compile(r"^[ \t]*([-=~^]){3,}[ \t]*$")


@dataclass
class _Found:
    """A Python object read from its file: its kind, name, signature, docstring and the
    nodes of what it holds."""

    kind: str
    name: str
    signature: str = ""
    doc: str = ""
    node: ast.AST | None = None
    module: str = ""
    source: Module | None = None


def python_paths(conf_dir: str, extra: Iterable[str], exists: Callable[[str], bool]) -> list[str]:
    """The source-relative folders a Sphinx project at ``conf_dir`` imports its modules
    from: ``extra`` (what its ``conf.py`` puts on ``sys.path``), its folder and each above
    it, each with its ``src/`` and ``lib/`` (those that exist)."""
    found = [p for p in extra if p is not None]
    folder = conf_dir
    while True:
        found += [folder, *(f"{folder}/{d}".lstrip("/") for d in ("src", "lib"))]
        if not folder:
            break
        folder = folder.rpartition("/")[0]
    return [p for p in dict.fromkeys(found) if p == "" or exists(p)]


def module_file(
    dotted: str, roots: Iterable[str], is_file: Callable[[str], bool]
) -> tuple[str, str, list[str]] | None:
    """(the file, the module's name, the rest of the name) of the longest module
    ``dotted`` names below one of ``roots`` (source-relative folders); ``None`` when none
    holds it."""
    parts = [p for p in dotted.split(".") if p]
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    roots = list(roots)
    for cut in range(len(parts), 0, -1):
        head = "/".join(parts[:cut])
        for root in roots:
            base = f"{root}/{head}" if root else head
            for candidate in (f"{base}.py", f"{base}/__init__.py"):
                if is_file(candidate):
                    return candidate, ".".join(parts[:cut]), parts[cut:]
    return None


@dataclass(frozen=True)
class Module:
    """A Python file read: its syntax tree and its lines (an attribute's ``#:``
    comments are in no tree)."""

    tree: ast.Module
    lines: tuple[str, ...]


@lru_cache(maxsize=64)
def _parsed(path: str, size: int, mtime: float) -> Module | None:
    """The Python file ``path`` parsed (never run); ``None`` when it is no Python 3, or
    too large to read. ``size`` and ``mtime`` key the cache."""
    if size > _MAX_BYTES:
        return None
    try:
        data = read_regular(path, listed=True, limit=_MAX_BYTES + 1)
        text = data.decode("utf-8-sig", errors="replace")
        try:
            tree = ast.parse(text)
        except SyntaxError:  # Python 3.12's `type X = ...` and `def f[T]()`, on 3.11
            tree = ast.parse(_without_newer_syntax(text))
        return Module(tree, tuple(text.splitlines()))
    except (OSError, SyntaxError, ValueError, MemoryError, RecursionError):
        return None


#: Python 3.12's type statement (``type Alias = int``) and a generic's parameters
#: (``def first[T](items: list[T])``, ``class Box[T]:``), which Python 3.11 cannot parse.
_TYPE_STATEMENT = re.compile(r"^([ \t]*)type[ \t]+(\w+)[ \t]*(?:\[[^\]\n]*\])?[ \t]*=", re.M)
_TYPE_PARAMETERS = re.compile(r"^([ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+)\[[^\]\n]*\]", re.M)


def _without_newer_syntax(text: str) -> str:
    """``text`` with Python 3.12's type statements as assignments and its generics'
    parameters left out, every line where it was: what a module defines, and its
    docstrings, read as they are on Python 3.12."""
    return _TYPE_PARAMETERS.sub(r"\1", _TYPE_STATEMENT.sub(r"\1\2 =", text))


def parse_file(path: str) -> Module | None:
    """The Python file at ``path`` (absolute) parsed, cached while it is unchanged."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _parsed(path, st.st_size, st.st_mtime)


class Reader:
    """Reads the objects autodoc names from a source's Python files: ``locate`` finds a
    dotted name's module file (:func:`module_file`), ``parse`` reads a file."""

    def __init__(
        self,
        locate: Callable[[str], tuple[str, str, list[str]] | None],
        parse: Callable[[str], Module | None],
    ) -> None:
        self.locate = locate
        self.parse = parse

    def find(self, dotted: str, kind: str) -> _Found | None:
        """The object ``dotted`` names, read as autodoc's ``kind`` shows it."""
        return self._find(dotted, kind, 0)

    def _find(self, dotted: str, kind: str, hops: int) -> _Found | None:
        located = self.locate(dotted)
        if located is None:
            return None
        path, module, rest = located
        read = self.parse(path)
        if read is None:
            return None
        tree = read.tree
        if not rest:
            if kind != "module":
                return None
            doc = ast.get_docstring(tree) or ""
            return _Found("module", module, doc=doc, node=tree, module=module, source=read)
        scope: ast.AST = tree
        parent: ast.AST = tree
        for depth, name in enumerate(rest):
            node = _defined(scope, name)
            if node is None and depth == 0 and hops < _MAX_HOPS:
                origin = _imported(tree, name, module, path.endswith("__init__.py"))
                if origin is not None:
                    return self._find(".".join([origin, *rest[1:]]), kind, hops + 1)
            if node is None and isinstance(scope, ast.ClassDef) and hops < _MAX_HOPS:
                return self._inherited(scope, module, rest[depth:], kind, hops)
            if node is None:
                return None
            parent, scope = scope, node
        found = _described_node(scope, rest[-1], kind, module)
        if found is not None:
            found.source = read
            if not found.doc and isinstance(scope, (ast.Assign, ast.AnnAssign)):
                found.doc = _attribute_doc(parent, scope, read.lines)
        return found

    def _inherited(
        self, klass: ast.ClassDef, module: str, rest: list[str], kind: str, hops: int
    ) -> _Found | None:
        """``rest`` (a member's name) as the first of ``klass``'s bases the source
        defines holds it (a builder's ``supported_image_types``, set by ``Builder``)."""
        for base in klass.bases:
            written = ast.unparse(base) if isinstance(base, (ast.Name, ast.Attribute)) else ""
            if written:
                found = self._find(".".join([module, written, *rest]), kind, hops + 1)
                if found is not None:
                    return found
        return None


def _defined(scope: ast.AST, name: str) -> ast.AST | None:
    """The class, function or assignment of ``name`` in ``scope``'s own body."""
    found = None
    for node in getattr(scope, "body", []):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name == name:
                found = node  # the last definition wins, as when the module runs
        elif _assigned(node) == name:
            found = node
    return found


def _assigned(node: ast.AST) -> str | None:
    """The one name ``node`` assigns (``x = 1``, ``x: int = 1``), else ``None``."""
    target = None
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
    elif isinstance(node, ast.AnnAssign):
        target = node.target
    return target.id if isinstance(target, ast.Name) else None


def _imported(tree: ast.Module, name: str, module: str, package: bool) -> str | None:
    """The dotted name ``name`` is imported from at the top of ``tree`` (the module
    ``module``; ``package`` when it is a package's ``__init__``), else ``None``."""
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        for alias in node.names:
            if (alias.asname or alias.name) != name or alias.name == "*":
                continue
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if package else 0)
                if keep < 1:
                    return None
                base = ".".join([*parts[:keep], *([base] if base else [])])
            return f"{base}.{alias.name}" if base else None
    return None


def _described_node(node: ast.AST, name: str, kind: str, module: str) -> _Found | None:
    if isinstance(node, ast.ClassDef):
        init = _defined(node, "__init__")
        signature = _signature(init, method=True) if isinstance(init, ast.FunctionDef) else ""
        shown = "exception" if kind == "exception" else "class"
        return _Found(shown, name, signature, ast.get_docstring(node) or "", node, module)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        method = kind in ("method", "property")
        decorators = {_decorator_name(d) for d in node.decorator_list}
        if "property" in decorators or "cached_property" in decorators:
            shown, signature = "property", ""
        else:
            shown = kind if kind in ("method", "decorator") else "function"
            signature = _signature(node, method=method and "staticmethod" not in decorators)
        return _Found(shown, name, signature, ast.get_docstring(node) or "", node, module)
    if kind in ("attribute", "data"):
        return _Found(kind, name, _value(node), "", node, module)
    return None


#: Longest value an attribute's signature shows, as Sphinx's own cut does.
_LONGEST_VALUE = 60


def _value(node: ast.AST) -> str:
    """An attribute's type and value as Sphinx shows them after its name (``: str =
    'base'``), a long value left out."""
    shown = ""
    try:
        if isinstance(node, ast.AnnAssign):
            shown = f": {ast.unparse(node.annotation)}"
        value = getattr(node, "value", None)
        if value is not None:
            written = ast.unparse(value)
            if len(written) <= _LONGEST_VALUE and "\n" not in written:
                shown += f" = {written}"
    except (ValueError, RecursionError):
        return ""
    return shown


def _decorator_name(node: ast.AST) -> str:
    while isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> str:
    """``node``'s parameters as written, a method's first (``self``, ``cls``) left out."""
    args = node.args
    if method:
        if args.posonlyargs:
            args = ast.arguments(**{**args.__dict__, "posonlyargs": args.posonlyargs[1:]})
        elif args.args:
            args = ast.arguments(**{**args.__dict__, "args": args.args[1:]})
    try:
        return f"({ast.unparse(args)})"
    except (ValueError, RecursionError):
        return "(...)"


def _attribute_doc(scope: ast.AST, node: ast.AST, lines: tuple[str, ...]) -> str:
    """An attribute's docstring as autodoc reads it: the ``#:`` comments right above
    its assignment, else the string right below it."""
    above = []
    at = node.lineno - 2
    while 0 <= at < len(lines) and lines[at].strip().startswith("#:"):
        above.append(lines[at].strip()[2:].strip())
        at -= 1
    if above:
        return "\n".join(reversed(above))
    body = getattr(scope, "body", [])
    after = next((body[i + 1] for i, n in enumerate(body[:-1]) if n is node), None)
    if (
        isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
        and isinstance(after.value.value, str)
    ):
        return cleandoc(after.value.value)
    return ""


def _listed(value: str | None) -> list[str] | None:
    """The names an option lists (``:members: get, post``); ``None`` when it lists none."""
    names = [n.strip() for n in (value or "").split(",") if n.strip()]
    return names or None


def members(
    found: _Found, options: dict[str, str | None], order: str, reader: Reader
) -> list[_Found]:
    """The members of ``found`` its directive's ``options`` ask for, as autodoc picks
    and orders them (see the module); none without ``:members:``."""
    if "members" not in options or found.source is None or found.node is None:
        return []
    candidates = _own_members(found)
    if "inherited-members" in options and found.kind in ("class", "exception"):
        for base in _bases(found, reader):
            for name, member in _own_members(base).items():
                candidates.setdefault(name, member)
    listed = _listed(options.get("members"))
    exported = _all_names(found.node) if found.kind == "module" else None
    if listed is None and exported is not None:
        listed, explicit = exported, False
    else:
        explicit = listed is not None
    if listed is not None:
        picked = []
        for name in listed:
            member = candidates.get(name)
            if member is None and found.kind == "module":  # __all__ names what it imports
                member = reader.find(f"{found.module}.{name}", "data")
                if member is not None:
                    member.name = name
            if member is not None:
                picked.append(member)
    else:
        picked = list(candidates.values())
    excluded = set(_listed(options.get("exclude-members")) or ())
    special = _listed(options.get("special-members"))
    kept = []
    for member in picked:
        name = member.name
        if name in excluded:
            continue
        if not explicit:
            dunder = name.startswith("__") and name.endswith("__")
            if dunder and not (
                "special-members" in options and (special is None or name in special)
            ):
                continue
            if not dunder and name.startswith("_") and "private-members" not in options:
                continue
            if not member.doc and "undoc-members" not in options:
                continue
        kept.append(member)
    return _ordered(kept, options.get("member-order") or order, explicit)


def _own_members(found: _Found) -> dict[str, _Found]:
    """What ``found``'s own body defines, by name (a later definition replaces one
    before it, as when the code runs)."""
    if found.source is None or found.node is None:
        return {}
    child = "method" if found.kind in ("class", "exception") else "function"
    own: dict[str, _Found] = {}
    for node in getattr(found.node, "body", []):
        name = getattr(node, "name", None) or _assigned(node)
        if not name:
            continue
        kind = "class" if isinstance(node, ast.ClassDef) else child
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            kind = "data" if found.kind == "module" else "attribute"
        described = _described_node(node, name, kind, found.module)
        if described is not None:
            described.source = found.source
            if kind in ("data", "attribute"):
                described.doc = _attribute_doc(found.node, node, found.source.lines)
            if isinstance(node, ast.ClassDef) and _is_exception(node):
                described.kind = "exception"
            own[name] = described
    return own


def _bases(found: _Found, reader: Reader) -> list[_Found]:
    """The classes ``found`` inherits from that the source defines, nearest first, each
    once (``object`` and other projects' classes are not read)."""
    seen: list[_Found] = []
    todo = [found]
    while todo and len(seen) < _MAX_HOPS * 2:
        klass = todo.pop(0)
        for base in getattr(klass.node, "bases", []):
            try:
                written = ast.unparse(base)
            except (ValueError, RecursionError):
                continue
            if not re.fullmatch(r"[A-Za-z_][\w.]*", written):
                continue  # Generic[T], a call
            parent = reader.find(f"{klass.module}.{written}", "class")
            if parent is not None and all(parent.node is not s.node for s in seen):
                seen.append(parent)
                todo.append(parent)
    return seen


def _is_exception(node: ast.ClassDef) -> bool:
    names = [b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in node.bases]
    return any(n.endswith(("Error", "Exception", "Warning")) for n in names)


def _all_names(tree: ast.AST) -> list[str] | None:
    """A module's ``__all__``, when it is a literal list of names."""
    for node in getattr(tree, "body", []):
        if _assigned(node) == "__all__" and isinstance(node, ast.Assign):
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return None
            if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                return list(value)
    return None


#: autodoc's "groupwise" order: classes, then functions and methods, then attributes.
_GROUPS = {"class": 0, "exception": 0, "function": 1, "method": 1, "property": 2}


def _ordered(found: list[_Found], order: str, explicit: bool) -> list[_Found]:
    order = (order or "alphabetical").strip().lower()
    if order == "bysource" or (explicit and order != "alphabetical"):
        return found
    if order == "groupwise":
        return sorted(found, key=lambda f: (_GROUPS.get(f.kind, 3), f.name.lower()))
    return sorted(found, key=lambda f: f.name.lower())


#: An autodoc directive in a class's content naming one of its members by name alone.
_RELATIVE = re.compile(r"^(\s*\.\.\s+auto(?:method|attribute|property)::\s+)([A-Za-z_]\w*)\s*$")

#: How Sphinx's HTML marks each kind before its name (a function, method, attribute and
#: data: nothing).
_DIRECTIVES = {
    "class": "py:class",
    "exception": "py:exception",
    "function": "py:function",
    "method": "py:method",
    "property": "py:property",
    "attribute": "py:attribute",
    "data": "py:data",
    "decorator": "py:decorator",
}


def docstring_lines(doc: str) -> list[str]:
    """A docstring as reStructuredText a directive may hold: a NumPy section's title over
    its underline is a rubric (a section inside a directive is an error)."""
    lines = cleandoc(doc).splitlines() if doc.strip() else []
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        following = lines[i + 1] if i + 1 < len(lines) else ""
        title = line.strip()
        if (
            title
            and not line.startswith((" ", "\t"))
            and _UNDERLINE.match(following)
            and len(following.strip()) >= len(title)
            and (i == 0 or not lines[i - 1].strip())
        ):
            out += [f".. rubric:: {title}", ""]
            i += 2
            continue
        out.append(line)
        i += 1
    return out


def described(
    found: _Found,
    shown_name: str,
    options: dict[str, str | None],
    content: list[str],
    order: str,
    reader: Reader,
) -> list[str]:
    """What autodoc writes of ``found`` (named ``shown_name`` as its directive names it),
    as reStructuredText lines: its object directive with its signature, its docstring,
    the directive's own ``content``, then the members ``options`` ask for."""
    picked = members(found, options, order, reader)
    if found.kind in ("class", "exception"):  # its content's automethod:: names its own
        content = [_RELATIVE.sub(rf"\1{shown_name}.\2", line) for line in content]
    if found.kind == "module":  # read into the page: its sections are the page's
        doc = cleandoc(found.doc).splitlines() if found.doc.strip() else []
    else:
        doc = docstring_lines(found.doc)
    inner = [*doc, *([""] if doc else []), *content]
    for member in picked:
        inner += ["", *described(member, member.name, {}, [], order, reader)]
    if found.kind == "module":
        return inner
    head = f".. {_DIRECTIVES.get(found.kind, 'py:' + found.kind)}:: {shown_name}{found.signature}"
    return [head, "", *(f"   {line}" if line.strip() else "" for line in inner)]


def autodoc_text(
    directive: str,
    argument: str,
    options: dict[str, str | None],
    content: list[str],
    current_module: str,
    current_class: str,
    root: str,
    roots: list[str],
    order: str,
) -> list[str] | str:
    """What the autodoc ``directive`` (``autoclass``) shows of ``argument`` (a dotted
    name, relative to ``current_module`` when that holds it, a method's to
    ``current_class`` too: the class whose description holds it), as reStructuredText
    lines; or why it shows nothing: its module is not in the source ``root``
    (absolute), below ``roots`` (source-relative folders, :func:`python_paths`), or
    does not define the name."""
    kind = AUTODOC[directive]
    name = argument.split("(", 1)[0].strip()  # an autofunction's own signature
    signature = argument[len(name) :].strip() if "(" in argument else ""
    real_root = os.path.realpath(root)

    def is_file(rel: str) -> bool:
        path = os.path.join(real_root, *rel.split("/"))
        real = os.path.realpath(path)
        return real.startswith(real_root + os.sep) and os.path.isfile(real)

    reader = Reader(
        lambda dotted: module_file(dotted, roots, is_file),
        lambda rel: parse_file(os.path.join(real_root, *rel.split("/"))),
    )
    tried = [name]
    if current_module and not name.startswith(f"{current_module}."):
        tried.insert(0, f"{current_module}.{name}")
    if current_class and kind in ("method", "attribute", "property"):
        tried.insert(0, f"{current_class}.{name}")
        if current_module:
            tried.insert(0, f"{current_module}.{current_class}.{name}")
    if kind == "module":
        tried = [name]
    for dotted in tried:
        found = reader.find(dotted, kind)
        if found is not None:
            if signature:
                found.signature = signature
            return described(found, name, options, content, order, reader)
    located = next((m for m in (module_file(d, roots, is_file) for d in tried) if m), None)
    if located is None:
        return (
            f"the module of {tried[0]} is not in the source (build the folder that holds its code)"
        )
    if reader.parse(located[0]) is None:
        return (
            f"{located[0]} cannot be read as Python (invalid, written for a Python newer "
            f"than this one, or over {_MAX_BYTES:,} bytes)"
        )
    return (
        f"{located[0]} does not define {name} where kas-tui reads it (no class, function or "
        "assignment of that name: Sphinx imports the module, kas-tui never runs it)"
    )
