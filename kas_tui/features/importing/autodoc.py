"""Sphinx's autodoc read from the source's Python files, never imported or run: an
``.. autoclass:: werkzeug.wrappers.Request`` shows what its site shows, the object's
signature and docstring (and its members' when ``:members:`` asks), where it showed
only the name (werkzeug's middleware pages were seven stubs of one line each).

- **Where.** A dotted name's module is found below the folders a Sphinx project imports
  from: its ``conf.py``'s folder and each folder above it in the source, each with its
  ``src/`` and ``lib/``, and the folders ``conf.py`` puts on ``sys.path``
  (:func:`.python_objects.python_paths`). A name a package's ``__init__.py`` imports from a module of its
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
import re
from inspect import cleandoc

from kas_tui.features.importing.python_objects import (
    MAX_BYTES,
    Found,
    Reader,
    SourceFiles,
    all_names,
    bases_of,
    module_file,
    own_members,
)
from kas_tui.text.sentences import sentences

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
#: A NumPy docstring's section: a title over a line of dashes as long.
_UNDERLINE = re.compile(r"^[ \t]*([-=~^]){3,}[ \t]*$")


def _listed(value: str | None) -> list[str] | None:
    """The names an option lists (``:members: get, post``); ``None`` when it lists none."""
    names = [n.strip() for n in (value or "").split(",") if n.strip()]
    return names or None


def members(
    found: Found, options: dict[str, str | None], order: str, reader: Reader
) -> list[Found]:
    """The members of ``found`` its directive's ``options`` ask for, as autodoc picks
    and orders them (see the module); none without ``:members:``."""
    if "members" not in options or found.source is None or found.node is None:
        return []
    candidates = own_members(found)
    if "inherited-members" in options and found.kind in ("class", "exception"):
        for base in bases_of(found, reader):
            for name, member in own_members(base).items():
                candidates.setdefault(name, member)
    listed = _listed(options.get("members"))
    exported = all_names(found.node) if found.kind == "module" else None
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


#: autodoc's "groupwise" order: classes, then functions and methods, then attributes.
_GROUPS = {"class": 0, "exception": 0, "function": 1, "method": 1, "property": 2}


def _ordered(found: list[Found], order: str, explicit: bool) -> list[Found]:
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
    found: Found,
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
    (absolute), below ``roots`` (source-relative folders, :func:`.python_objects.python_paths`), or
    does not define the name."""
    kind = AUTODOC[directive]
    name = argument.split("(", 1)[0].strip()  # an autofunction's own signature
    signature = argument[len(name) :].strip() if "(" in argument else ""
    files = SourceFiles(root)
    reader, is_file = files.reader(roots), files.is_file
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
            f"than this one, or over {MAX_BYTES:,} bytes)"
        )
    return (
        f"{located[0]} does not define {name} where kas-tui reads it (no class, function or "
        "assignment of that name: Sphinx imports the module, kas-tui never runs it)"
    )


#: Widest an autosummary row's name and signature is, as Sphinx's ``max_item_chars``.
_ITEM_CHARS = 50


def autosummary_lines(
    names: list[str], current_module: str, root: str, roots: list[str], most: int
) -> list[str]:
    """What Sphinx's autosummary table shows of ``names`` (relative to
    ``current_module``), as reStructuredText lines of a list: each name with its
    signature shortened as autosummary does and its docstring's first sentence; a name
    the source does not define (another project's, a C extension's), and those past the
    first ``most`` (a generated page of thousands), its name alone."""
    reader = SourceFiles(root).reader(roots)
    out: list[str] = []
    for n, written in enumerate(names):
        name = written.lstrip("~")
        shown = name.rsplit(".", 1)[-1] if written.startswith("~") else name
        if n >= most:
            out.append(f"- ``{shown}``")
            continue
        tried = [f"{current_module}.{name}", name] if current_module else [name]
        found = None
        for dotted in tried:
            found = reader.find_any(dotted)
            if found is not None:
                break
        if found is None:
            out.append(f"- ``{shown}``")
            continue
        head = shown
        if found.kind in ("class", "exception", "function", "method", "decorator"):
            head += short_signature(found.signature, max(10, _ITEM_CHARS - len(shown)))
        summary = first_sentence(found.doc)
        out.append(f"- ``{head}``" + (f": {summary}" if summary else ""))
    return out


def short_signature(signature: str, room: int) -> str:
    """A signature as autosummary shortens it (Sphinx's ``mangle_signature``): the
    parameters without defaults, then those with defaults in brackets, no types or
    values, ``...`` for what does not fit in ``room`` characters:
    ``(G[, source, target, weight, ...])``."""
    try:
        tree = ast.parse(f"def f{signature}: pass")
    except (SyntaxError, ValueError, RecursionError):
        return "(...)"
    function = tree.body[0]
    if not isinstance(function, ast.FunctionDef):
        return "(...)"
    spec = function.args
    positional = [a.arg for a in [*spec.posonlyargs, *spec.args]]
    required = positional[: len(positional) - len(spec.defaults)]
    optional = positional[len(required) :] + [a.arg for a in spec.kwonlyargs]
    shown = _limited(required, room - 2)
    if optional:
        if not shown:
            shown = f"[{_limited(optional, room - 4)}]"
        elif len(shown) < room - 4 - 2 - 3:
            shown += f"[, {_limited(optional, room - len(shown) - 4 - 2)}]"
    return f"({shown})"


def _limited(items: list[str], room: int) -> str:
    """``items`` joined by commas, those that do not fit in ``room`` as ``...``
    (Sphinx's ``limited_join``)."""
    joined = ", ".join(items)
    if len(joined) < room:
        return joined
    used = kept = 0
    for item in items:
        used += len(item) + 2
        if used >= room - 3:
            break
        kept += 1
    return ", ".join([*items[:kept], "..."])


def first_sentence(doc: str) -> str:
    """A docstring's summary as autosummary takes it: the first sentence of its first
    paragraph, on one line."""
    lines = cleandoc(doc).splitlines() if doc.strip() else []
    paragraph: list[str] = []
    for line in lines:
        if not line.strip():
            if paragraph:
                break
            continue
        paragraph.append(line.strip())
    text = " ".join(paragraph)
    found = sentences(text)
    return found[0] if found else ""
