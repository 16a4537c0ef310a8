"""A Python source's objects read from its files, never imported or run (for Sphinx's
autodoc, :mod:`.autodoc`): where a dotted name's module is (:func:`module_file`, below
:func:`python_paths`), what a module, class, function or attribute is there (its
signature, docstring, type and value), what a class inherits from the source's classes
and what a package's ``__init__.py`` imports from its own modules. A file is parsed with
Python's ``ast`` (Python 3.12's syntax read on 3.11 too), cached while it is unchanged.
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

#: Files larger than this are not read for docstrings (a generated module).
MAX_BYTES = 4 * 1024 * 1024
#: How many imports a name is followed through to where it is defined.
_MAX_HOPS = 6


@dataclass
class Found:
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
    if size > MAX_BYTES:
        return None
    try:
        data = read_regular(path, listed=True, limit=MAX_BYTES + 1)
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

    def find(self, dotted: str, kind: str) -> Found | None:
        """The object ``dotted`` names, read as autodoc's ``kind`` shows it."""
        return self._find(dotted, kind, 0)

    def find_any(self, dotted: str) -> Found | None:
        """The object ``dotted`` names, whatever it is (a module, a class, a function,
        an attribute), as a table or a block naming it alone reads it."""
        for kind in ("module", "function", "data"):
            found = self._find(dotted, kind, 0)
            if found is not None:
                return found
        return None

    def _find(self, dotted: str, kind: str, hops: int) -> Found | None:
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
            return Found("module", module, doc=doc, node=tree, module=module, source=read)
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
        found = described_node(scope, rest[-1], kind, module)
        if found is not None:
            found.source = read
            if not found.doc and isinstance(scope, (ast.Assign, ast.AnnAssign)):
                found.doc = _attribute_doc(parent, scope, read.lines)
        return found

    def _inherited(
        self, klass: ast.ClassDef, module: str, rest: list[str], kind: str, hops: int
    ) -> Found | None:
        """``rest`` (a member's name) as the first of ``klass``'s bases the source
        defines holds it (a builder's ``supported_image_types``, set by ``Builder``)."""
        for base in klass.bases:
            written = ast.unparse(base) if isinstance(base, (ast.Name, ast.Attribute)) else ""
            if written:
                found = self._find(".".join([module, written, *rest]), kind, hops + 1)
                if found is not None:
                    return found
        return None


class SourceFiles:
    """The files of the source at ``root`` that a Python name may be read from: none
    outside it, through a link or otherwise."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)

    def _inside(self, rel: str) -> str | None:
        path = os.path.realpath(os.path.join(self.root, *rel.split("/")))
        return path if path == self.root or path.startswith(self.root + os.sep) else None

    def is_file(self, rel: str) -> bool:
        path = self._inside(rel)
        return path is not None and path != self.root and os.path.isfile(path)

    def is_dir(self, rel: str) -> bool:
        path = self._inside(rel)
        return path is not None and os.path.isdir(path)

    def reader(self, roots: list[str]) -> Reader:
        """A :class:`Reader` of the modules below ``roots`` (source-relative folders)."""
        return Reader(
            lambda dotted: module_file(dotted, roots, self.is_file),
            lambda rel: parse_file(os.path.join(self.root, *rel.split("/"))),
        )


def _defined(scope: ast.AST, name: str) -> ast.AST | None:
    """The class, function or assignment of ``name`` in ``scope``'s own body."""
    found = None
    for node in getattr(scope, "body", []):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name == name:
                found = node  # the last definition wins, as when the module runs
        elif assigned(node) == name:
            found = node
    return found


def assigned(node: ast.AST) -> str | None:
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


def described_node(node: ast.AST, name: str, kind: str, module: str) -> Found | None:
    if isinstance(node, ast.ClassDef):
        init = _defined(node, "__init__")
        signature = _signature(init, method=True) if isinstance(init, ast.FunctionDef) else ""
        shown = "exception" if kind == "exception" else "class"
        return Found(shown, name, signature, ast.get_docstring(node) or "", node, module)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        method = kind in ("method", "property")
        decorators = {_decorator_name(d) for d in node.decorator_list}
        if "property" in decorators or "cached_property" in decorators:
            shown, signature = "property", ""
        else:
            shown = kind if kind in ("method", "decorator") else "function"
            signature = _signature(node, method=method and "staticmethod" not in decorators)
        return Found(shown, name, signature, ast.get_docstring(node) or "", node, module)
    if kind in ("attribute", "data"):
        return Found(kind, name, _value(node), "", node, module)
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
    its assignment, else the ``#:`` comment after it on its line, else the string right
    below it."""
    end = getattr(node, "end_lineno", None) or node.lineno
    if 0 < end <= len(lines):
        after_code = lines[end - 1][getattr(node, "end_col_offset", None) or 0 :].strip()
        if after_code.startswith("#:"):
            return after_code[2:].strip()
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


def own_members(found: Found) -> dict[str, Found]:
    """What ``found``'s own body defines, by name (a later definition replaces one
    before it, as when the code runs)."""
    if found.source is None or found.node is None:
        return {}
    child = "method" if found.kind in ("class", "exception") else "function"
    own: dict[str, Found] = {}
    for node in getattr(found.node, "body", []):
        name = getattr(node, "name", None) or assigned(node)
        if not name:
            continue
        kind = "class" if isinstance(node, ast.ClassDef) else child
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            kind = "data" if found.kind == "module" else "attribute"
        described = described_node(node, name, kind, found.module)
        if described is not None:
            described.source = found.source
            if kind in ("data", "attribute"):
                described.doc = _attribute_doc(found.node, node, found.source.lines)
            if isinstance(node, ast.ClassDef) and _is_exception(node):
                described.kind = "exception"
            own[name] = described
        if name == "__init__" and child == "method" and isinstance(node, ast.FunctionDef):
            for attribute, set_here in _instance_attributes(node, found).items():
                own.setdefault(attribute, set_here)  # a class's own attribute comes first
    return own


def _instance_attributes(init: ast.FunctionDef, klass: Found) -> dict[str, Found]:
    """The attributes ``__init__`` sets on ``self`` with a doc comment or docstring
    (``self.name = name  #: What it is called.``), as autodoc's analyzer finds them: one
    it sets without a word is no member (the analyzer never sees it)."""
    first = [*init.args.posonlyargs, *init.args.args][:1]
    if not first or klass.source is None:
        return {}
    me = first[0].arg
    out: dict[str, Found] = {}
    for node in init.body:
        target: ast.AST | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        elif isinstance(node, ast.AnnAssign):
            target = node.target
        if not (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == me
        ):
            continue
        doc = _attribute_doc(init, node, klass.source.lines)
        if doc and target.attr not in out:
            shown = ""
            if isinstance(node, ast.AnnAssign):
                try:
                    shown = f": {ast.unparse(node.annotation)}"
                except (ValueError, RecursionError):
                    shown = ""
            out[target.attr] = Found(
                "attribute", target.attr, shown, doc, node, klass.module, klass.source
            )
    return out


def bases_of(found: Found, reader: Reader) -> list[Found]:
    """The classes ``found`` inherits from that the source defines, nearest first, each
    once (``object`` and other projects' classes are not read)."""
    seen: list[Found] = []
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


def all_names(tree: ast.AST) -> list[str] | None:
    """A module's ``__all__``, when it is a literal list of names."""
    for node in getattr(tree, "body", []):
        if assigned(node) == "__all__" and isinstance(node, ast.Assign):
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return None
            if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                return list(value)
    return None
