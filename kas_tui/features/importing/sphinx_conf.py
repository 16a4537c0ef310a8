"""What a Sphinx project's ``conf.py`` and its own extensions say about how its pages
are read, from their text as literals, never run: which files are pages
(``source_suffix``: :func:`rst_pages`), what roles make links (``extlinks``, the
sphinx-issues extension's ``issues_github_path``), what object types its extensions add
(``app.add_crossref_type``, ``app.add_object_type``), what text every page is read
with (``rst_prolog``, ``rst_epilog``) (:func:`rst_reading`), and what it leaves out
(``exclude_patterns``: :func:`excluded_files`)."""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Callable, Collection

from kas_tui.features.importing.config_globs import excluded_by
from kas_tui.features.importing.convert_model import (
    MARKDOWN_EXTS,
    STD_OBJECTS,
    RstPages,
    RstReading,
)

#: conf.py's ``source_suffix``: a string, a list or a dict (``{".txt": "restructuredtext"}``).
_SOURCE_SUFFIX = re.compile(
    r"^source_suffix\s*=\s*(\{[^{}]*\}|\[[^\[\]]*\]|\([^()]*\)|'[^'\n]*'|\"[^\"\n]*\")",
    re.MULTILINE,
)


def rst_suffixes(conf: str) -> tuple[str, ...]:
    """The suffixes other than ``.rst`` that ``conf.py`` (its text) has Sphinx read as
    reStructuredText: Sphinx reads every suffix of ``source_suffix`` so but those another
    parser claims (MyST's Markdown, notebooks); a dict says which parser reads each.
    Read as a literal, never run: a value that is no literal names none."""
    found = _SOURCE_SUFFIX.search(conf)
    if found is None:
        return ()
    try:
        value = ast.literal_eval(found.group(1))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return ()
    if isinstance(value, str):
        value = [value]
    if isinstance(value, dict):
        named = [k for k, v in value.items() if isinstance(k, str) and v == "restructuredtext"]
    elif isinstance(value, (list, tuple)):
        named = [k for k in value if isinstance(k, str)]
        named = [k for k in named if k.lower() not in MARKDOWN_EXTS | {".ipynb"}]
    else:
        return ()
    suffixes = (k.strip().lower() for k in named)
    return tuple(
        dict.fromkeys(k for k in suffixes if re.fullmatch(r"\.[\w.-]+", k) and k != ".rst")
    )


def rst_pages(files: Collection[str], read: Callable[[str], str | None]) -> RstPages:
    """Which files of a source are reStructuredText pages (:class:`.RstPages`): every
    ``.rst``, and below each ``conf.py`` the suffixes it names (:func:`rst_suffixes`)."""
    more = []
    for path in sorted(f for f in files if posixpath.basename(f) == "conf.py"):
        text = read(path) or ""
        if "source_suffix" in text:
            more += [(posixpath.dirname(path), suffix) for suffix in rst_suffixes(text)]
    return RstPages(tuple(more))


def rst_reading(files: Collection[str], read: Callable[[str], str | None]) -> RstReading:
    """How the source's Sphinx projects have their pages read (:class:`.RstReading`):
    each ``conf.py``'s ``extlinks`` and sphinx-issues' ``issues_github_path``, its
    ``rst_prolog`` and ``rst_epilog``, and the object types ``add_crossref_type`` and
    ``add_object_type`` calls add in the Python files of its folder (its ``_ext``
    extensions, its own ``setup(app)``). Read as literals, never run."""
    projects = [posixpath.dirname(f) for f in files if posixpath.basename(f) == "conf.py"]
    if not projects:
        return RstReading()
    extlinks: dict[str, tuple[str, str | None]] = {}
    objects = {d: (r, True) for d, r in STD_OBJECTS}
    said: dict[str, str] = {}  # issues_github_path, autodoc_member_order
    own: dict[str, dict[str, str]] = {}  # each conf.py's folder -> its rst_prolog...
    defaults: dict[str, str] = {}  # autodoc_default_options
    paths: list[str] = []  # what conf.py puts on sys.path
    for path in sorted(files):
        if not path.endswith(".py") or not any(_below(path, p) for p in projects):
            continue
        text = read(path) or ""
        conf = posixpath.basename(path) == "conf.py"
        if not conf and "_type(" not in text:
            continue
        tree = _python(text)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if conf:
                extlinks.update(_extlinks(node))
                said.update(_strings(node, _SAID))
                own.setdefault(posixpath.dirname(path), {}).update(_strings(node, _SAID))
                defaults.update(_autodoc_defaults(node))
                paths += _sys_paths(node, posixpath.dirname(path))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                kind = node.func.attr
                if kind in ("add_crossref_type", "add_object_type"):
                    named = _literal_args(node, ("directivename", "rolename"))
                    if named is not None:
                        objects[named[0]] = (named[1] or named[0], kind == "add_object_type")
    for role, link in _issue_links(said.get("issues_github_path", "")).items():
        extlinks.setdefault(role, link)
    return RstReading(
        tuple((r, url, caption) for r, (url, caption) in sorted(extlinks.items())),
        tuple((d, r, shown) for d, (r, shown) in sorted(objects.items())),
        tuple((folder, *_texts(values)) for folder, values in sorted(own.items())),
        tuple(dict.fromkeys(paths)),
        said.get("autodoc_member_order", "alphabetical"),
        tuple(sorted(defaults.items())),
    )


def _texts(said: dict[str, str]) -> tuple[str, str]:
    """The text one project's pages are read with: before them (Sphinx's own
    ``|version|`` and ``|release|``, then ``rst_prolog``) and after them
    (``rst_epilog``). Sphinx always defines the two: empty when ``conf.py`` sets no
    literal (scrapy's reads its package's version), as "Scrapy documentation" is no
    worse than a raw "Scrapy |version| documentation"."""
    versions = ""
    for name in ("version", "release"):
        value = said.get(name, "")
        literal = re.fullmatch(r"[\w.+-]{1,40}", value)
        versions += f".. |{name}| replace:: {value if literal else chr(92) + ' '}\n"
    prolog = "\n".join(t for t in (versions, said.get("rst_prolog", "")) if t)
    return prolog, said.get("rst_epilog", "")


#: What ``conf.py`` sets as a string that says how its pages read.
_SAID = frozenset(
    {"rst_prolog", "rst_epilog", "issues_github_path", "version", "release"}
    | {"autodoc_member_order"}
)


def _strings(node: ast.AST, names: frozenset[str]) -> dict[str, str]:
    """What an assignment of a string literal to one of ``names`` sets."""
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in names
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ):
        return {node.targets[0].id: node.value.value}
    return {}


def _autodoc_defaults(node: ast.AST) -> dict[str, str]:
    """``autodoc_default_options`` (``{"members": True, "exclude-members":
    "__weakref__"}``) as a directive's options: ``True`` or ``None`` an option without a
    value, ``False`` none."""
    if not (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == "autodoc_default_options"
    ):
        return {}
    try:
        value = ast.literal_eval(node.value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return {}
    if not isinstance(value, dict):
        return {}
    return {
        str(k): "" if v is True or v is None else str(v)
        for k, v in value.items()
        if v is not False and isinstance(v, (str, bool, type(None)))
    }


def _sys_paths(node: ast.AST, folder: str) -> list[str]:
    """The folders a ``sys.path.insert(0, os.path.abspath(".."))`` or ``.append(...)``
    in the ``conf.py`` of ``folder`` puts on the path, source-relative: its one string
    literal, read from that folder; none that leaves the source."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("insert", "append")
        and ast.unparse(node.func.value) == "sys.path"
    ):
        return []
    strings = [
        n.value
        for arg in node.args
        for n in ast.walk(arg)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]
    if len(strings) != 1 or strings[0].startswith("/"):
        return []
    joined = posixpath.normpath(posixpath.join(folder, strings[0].replace("\\", "/")))
    if joined == ".":
        return [""]
    return [] if joined.startswith("..") else [joined]


def _issue_links(repository: str) -> dict[str, tuple[str, str | None]]:
    """The roles the sphinx-issues extension makes of ``issues_github_path``
    ("pytest-dev/pytest"): ``:issue:`123``` is #123 on its tracker, ``:pr:`` a pull
    request, ``:user:`` a profile, ``:commit:`` a commit."""
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repository.strip()):
        return {}
    base = f"https://github.com/{repository.strip()}"
    return {
        "issue": (f"{base}/issues/%s", "#%s"),
        "pr": (f"{base}/pull/%s", "#%s"),
        "user": ("https://github.com/%s", "@%s"),
        "commit": (f"{base}/commit/%s", "@%s"),
    }


def _below(path: str, folder: str) -> bool:
    return not folder or path.startswith(folder + "/")


def _python(text: str) -> ast.Module | None:
    """``text`` parsed as Python (never run); ``None`` when it is no Python 3."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def _extlinks(node: ast.AST) -> dict[str, tuple[str, str | None]]:
    """What an assignment to ``extlinks`` (a dict, or one key of it) defines."""
    found: dict[str, tuple[str, str | None]] = {}
    if not isinstance(node, ast.Assign) or len(node.targets) != 1:
        return found
    target, value = node.targets[0], node.value
    if isinstance(target, ast.Name) and target.id == "extlinks" and isinstance(value, ast.Dict):
        pairs = zip(value.keys, value.values, strict=True)
    elif (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id == "extlinks"
    ):
        pairs = [(target.slice, value)]
    else:
        return found
    for key, entry in pairs:
        try:
            role, link = ast.literal_eval(key), ast.literal_eval(entry)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        if isinstance(role, str) and isinstance(link, (tuple, list)) and len(link) == 2:
            url, caption = link
            if (
                isinstance(url, str)
                and "%s" in url
                and (caption is None or isinstance(caption, str))
            ):
                found[role] = (url, caption)
    return found


def _literal_args(call: ast.Call, names: tuple[str, str]) -> tuple[str, str | None] | None:
    """The first two arguments of ``call`` (given by position or by ``names``), when the
    first is a string literal; the second ``None`` unless one too."""
    values: list[str | None] = [None, None]
    for n, arg in enumerate(call.args[:2]):
        values[n] = (
            arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
        )
    for keyword in call.keywords:
        if keyword.arg in names and isinstance(keyword.value, ast.Constant):
            value = keyword.value.value
            values[names.index(keyword.arg)] = value if isinstance(value, str) else None
    return (values[0], values[1]) if values[0] else None


#: conf.py's ``exclude_patterns``: a list of globs, one line or several.
_EXCLUDE = re.compile(r"^exclude_patterns\s*=\s*(\[[^\[\]]*\])", re.MULTILINE)


def excluded_files(conf_path: str, conf: str, files: Collection[str]) -> frozenset[str]:
    """The files below ``conf_path``'s folder that its ``exclude_patterns`` (``conf``
    its text) keep out of the site: globs from that folder, ``**`` across folders, a
    pattern naming a folder everything in it (pytest's ``naming20.rst``, sqlalchemy's
    ``**/unreleased*/*``); its ``_build/`` always."""
    found = _EXCLUDE.search(conf)
    try:
        patterns = ast.literal_eval(found.group(1)) if found else []
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        patterns = []
    names = (
        [p for p in patterns if isinstance(p, str) and p.strip()]
        if isinstance(patterns, list)
        else []
    )
    out = excluded_by(files, posixpath.dirname(conf_path), [*names, "_build"])
    return frozenset(out)
