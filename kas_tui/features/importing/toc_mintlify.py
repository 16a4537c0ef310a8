"""A Mintlify site's navigation: the ``navigation`` of its ``docs.json`` (or of the
older ``mint.json``), read as data.

The site's pages are the folder holding the config; a page is named by its path there
without its extension (``"essentials/settings"`` is ``essentials/settings.mdx`` or
``.md``). ``docs.json`` nests divisions, each holding the next: ``languages``,
``versions``, ``products``, ``tabs``, ``anchors``, ``dropdowns``, a tab's ``menu``,
``groups`` and ``pages``; each is a section named by its own key (``tab``, ``anchor``,
``group``, ...), and a group's ``root`` is its own page. Of ``languages`` the default
(``default: true``, else ``en``, else the first) is the tree, the others translations
(their pages are left out as any site's are); of ``versions`` the default (else the
first), and the pages only the others list, in any language, are the docs' earlier
versions, left out with a note, with the pages no navigation lists in the folder a
version keeps its pages in (``v1.10.0/``). A ``{"$ref": "./fr.json"}`` anywhere is that file's data. A division that
only links off the site (``href``) holds no page.

``mint.json`` lists its groups in ``navigation``; its ``tabs`` and ``anchors`` (``{name,
url}``) gather the groups whose pages sit under their ``url``.

Pages an OpenAPI or AsyncAPI spec or an SDK's build makes (``"GET /users"``,
``"openapi.json POST /plants"``, a division's ``openapi`` or ``sdk``) are no files of
the source: counted in one note.
Mintlify never serves its ``snippets/`` folder (pages import what it holds), nor what
``.mintignore`` names (``.gitignore`` patterns) or it ignores by default
(``README.md``, ``node_modules/``, ...): those are files, no pages.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.toc_formats import (
    SITE_PAGES,
    URL,
    line_of,
    load_lined,
    page_served_at,
)

#: Mintlify's config files: ``docs.json``, and ``mint.json`` before it.
CONFIG_NAMES = ("docs.json", "mint.json")
#: What Mintlify makes pages of.
PAGES = SITE_PAGES["mintlify"]
#: The folder of reusable snippets pages import; Mintlify serves none of it.
SNIPPETS = "snippets"
#: The divisions of ``docs.json``'s navigation, outermost first, with the key naming each.
_DIVISIONS = (
    ("languages", "language"),
    ("versions", "version"),
    ("products", "product"),
    ("tabs", "tab"),
    ("anchors", "anchor"),
    ("dropdowns", "dropdown"),
    ("menu", "item"),
    ("groups", "group"),
    ("pages", "group"),
)
#: A page an API spec makes: an operation ("GET /users", "openapi.json POST /plants",
#: "webhook plant-updated").
_OPERATION = re.compile(
    r"^(?:\S+\.(?:json|ya?ml)\s+)?(?:get|post|put|patch|delete|head|options|trace|webhook)\s+\S",
    re.IGNORECASE,
)
_MOST_REFS = 50
#: What Mintlify leaves out of every site without being told (its docs' "Default ignored
#: patterns"; hidden folders are no source files here anyway).
DEFAULT_IGNORED = (
    "node_modules/",
    "build/",
    "dist/",
    "coverage/",
    "tmp/",
    "temp/",
    "README.md",
    "LICENSE.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
)


def is_mintlify_config(path: str) -> bool:
    return posixpath.basename(path).lower() in CONFIG_NAMES


def mintlify_data(text: str) -> dict[str, Any] | None:
    """A Mintlify config's data; ``None`` when ``text`` is none (another tool's
    ``docs.json``: no ``navigation``, or not the shape Mintlify reads)."""
    data, error = load_lined(text)
    if error is not None:
        try:  # JSON that YAML refuses (a tab before a key): no line numbers then
            data = json.loads(text)
        except ValueError:
            return None
    if not isinstance(data, dict):
        return None
    nav = data.get("navigation")
    schema = str(data.get("$schema") or "")
    if not isinstance(nav, (dict, list)) or not nav:
        return None
    if "mintlify" not in schema and not isinstance(data.get("name"), str):
        return None
    return data


def mintlify_about(text: str) -> tuple[str | None, str | None]:
    """The ``name`` and ``description`` a Mintlify config gives its site."""
    data = mintlify_data(text) or {}

    def said(key: str) -> str | None:
        value = data.get(key)
        return " ".join(value.split()) or None if isinstance(value, str) else None

    return said("name"), said("description")


def mintlify_site(
    path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> tuple[list[Any], str, tuple[str, ...], frozenset[str]] | None:
    """The navigation of the Mintlify site ``path`` configures, as nodes made by
    ``node(title, path, children, line)``; its pages' folder; the files it never serves
    (its snippets, what ``.mintignore`` names); the pages only its other versions list.
    ``None`` when the file is no Mintlify config."""
    data = mintlify_data(read(path) or "")
    if data is None:
        return None
    root = posixpath.dirname(path)
    site = _Site(path, root, read, files, problems, node)
    nav = data["navigation"]
    if isinstance(nav, list):  # mint.json
        roots = site.legacy(nav, data.get("tabs"), data.get("anchors"), data.get("versions"))
    else:
        roots = site.division(nav)
    site.say()
    listed = {n.path for n in _nodes(roots) if getattr(n, "path", None)}
    older = (site.older - listed) | _version_folders(site.versions, listed, root)
    prefix = root + "/" if root else ""
    for name in site.version_names:  # a version's own folder, however little it lists
        folder = f"{prefix}{name.strip('/')}/"
        if name.strip("/") and not any(p.startswith(folder) for p in listed):
            older |= {folder} if any(f.startswith(folder) for f in files) else set()
    return roots, root, _unserved(root, read, files), frozenset(older)


class _Site:
    def __init__(
        self,
        path: str,
        root: str,
        read: Callable[[str], str | None],
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
    ) -> None:
        self.path, self.root, self.read, self.files = path, root, read, files
        self.problems, self.node = problems, node
        self.generated = 0  # pages an API spec makes
        self.specs = 0  # divisions whose pages a spec makes
        self.older: set[str] = set()  # pages the other versions list
        self.versions: list[set[str]] = []  # each other version's pages
        self.version_names: list[str] = []  # the other versions' names (v1)
        self.refs = 0

    # -- docs.json ------------------------------------------------------------------

    def division(self, obj: Any, file: str = "") -> list[Any]:
        """The nodes of one navigation object: each division it holds, in order."""
        obj, file = self.resolved(obj, file)
        if not isinstance(obj, dict):
            return []
        if obj.get("openapi") or obj.get("asyncapi") or obj.get("sdk"):
            self.specs += 1
        out: list[Any] = []
        for key, label in _DIVISIONS:
            items = obj.get(key)
            if not isinstance(items, list):
                continue
            if key in ("languages", "versions"):
                chosen = self.default(items, key)
                out += self.division(chosen, file) if chosen is not None else []
                continue
            for index, item in enumerate(items):
                out += self.item(item, label, file, line_of(items, index))
        return out

    def item(self, item: Any, label: str, file: str, line: int | None) -> list[Any]:
        item, file = self.resolved(item, file)
        if isinstance(item, str):
            page = self.page(item, line, file)
            return [self.node(None, page, [], line)] if page else []
        if not isinstance(item, dict):
            return []
        title = item.get(label)
        title = " ".join(title.split()) if isinstance(title, str) and title.strip() else None
        root = item.get("root")
        page = self.page(root, line, file) if isinstance(root, str) else None
        children = self.division(item, file)
        if page is None and not children:
            return []
        if title is None and page is None:
            return children  # an unnamed wrapper: its entries stand where it stands
        return [self.node(title, page, children, line)]

    def default(self, items: list[Any], key: str) -> Any:
        """The language or version the site opens with; the others are said."""
        code = "language" if key == "languages" else "version"
        values = [self.resolved(item, "")[0] for item in items]
        named = [v for v in values if isinstance(v, dict)]
        chosen = next((v for v in named if v.get("default") is True), None)
        if chosen is None and key == "languages":
            chosen = next((v for v in named if str(v.get(code, "")).lower() == "en"), None)
        if chosen is None and named:
            chosen = named[0]
        for value in named:
            if value is chosen:
                continue
            other = _Site(self.path, self.root, self.read, self.files, [], self.node)
            pages = {n.path for n in _nodes(other.division(value)) if n.path}
            if key == "versions":  # their pages are the docs' earlier versions
                self.older |= pages
                self.versions.append(pages)
                self.version_names.append(str(value.get("version") or ""))
            else:  # another language's: its pages are translations, its versions older
                self.older |= other.older
                self.versions += other.versions
        return chosen

    def resolved(self, obj: Any, file: str) -> tuple[Any, str]:
        """``obj``, or the data of the file its ``$ref`` names (relative to the file it
        is written in), and that file."""
        while isinstance(obj, dict) and isinstance(obj.get("$ref"), str):
            self.refs += 1
            base = posixpath.dirname(file or self.path)
            target = posixpath.normpath(posixpath.join(base, obj["$ref"]))
            text = self.read(target) if self.refs <= _MOST_REFS else None
            try:
                obj, file = (json.loads(text), target) if text is not None else (None, file)
            except ValueError:
                obj = None
            if obj is None:
                self.problems.append(
                    f"{file or self.path}:1: its $ref {target} is no JSON file of the source "
                    "(or refers in a loop): that part of the navigation was not read"
                )
        return obj, file

    def page(self, name: str, line: int | None, file: str = "") -> str | None:
        """The page a navigation entry names; ``None`` for an operation an API spec
        makes (counted) or an address off the site, and a problem when no file is."""
        name = name.strip()
        if not name or URL.match(name):
            return None
        if _OPERATION.match(name):
            self.generated += 1
            return None
        found = page_served_at(name, self.root, self.files, PAGES)
        if found:
            return found
        self.problems.append(
            f"{file or self.path}:{line or 1}: its navigation lists {name!r}, which no "
            f"page of the source is ({name}.mdx or .md beside {posixpath.basename(self.path)}); "
            "fix the entry or add the page"
        )
        return None

    def say(self) -> None:
        if self.generated or self.specs:
            made = f"{self.generated} pages" if self.generated else "pages"
            self.problems.append(
                f"{self.path}:1: {made} of its navigation are made from an OpenAPI or "
                "AsyncAPI spec when the site is built: they are no files of the source, "
                "so the package holds the spec's own file only"
            )

    # -- mint.json ------------------------------------------------------------------

    def legacy(self, groups: list[Any], tabs: Any, anchors: Any, versions: Any) -> list[Any]:
        """``mint.json``'s groups, those under a tab's or anchor's ``url`` in a section
        named by it; of its ``versions`` the first is the site's, the groups another
        ``version`` names are the docs' earlier versions."""
        current = versions[0] if isinstance(versions, list) and versions else None
        nodes = []
        other: dict[str, set[str]] = {}
        for index, group in enumerate(groups):
            line = line_of(groups, index)
            if not isinstance(group, dict):
                continue
            made = self.legacy_group(group, line)
            version = group.get("version")
            if current is not None and version is not None and version != current:
                other.setdefault(str(version), set()).update(n.path for n in _nodes(made) if n.path)
                continue
            nodes.append((group, made))
        self.versions += list(other.values())
        self.version_names += (
            [str(v) for v in versions[1:] if isinstance(v, str)] if current else []
        )
        self.older |= {p for pages in other.values() for p in pages}
        sections: list[tuple[str, str, list[Any]]] = []
        for division in [
            *(tabs if isinstance(tabs, list) else []),
            *(anchors if isinstance(anchors, list) else []),
        ]:
            url = division.get("url") if isinstance(division, dict) else None
            name = division.get("name") if isinstance(division, dict) else None
            if isinstance(url, str) and isinstance(name, str) and not URL.match(url):
                sections.append((url.strip("/") + "/", name.strip(), []))
        roots: list[Any] = []
        for group, made in nodes:
            first = _first_page(group)
            home = next((s for s in sections if first.startswith(s[0])), None)
            (home[2] if home else roots).extend(made)
        for _url, name, inner in sections:
            if inner:
                roots.append(self.node(name, None, inner, None))
        return roots

    def legacy_group(self, group: dict[str, Any], line: int | None) -> list[Any]:
        children = []
        pages = group.get("pages")
        for index, entry in enumerate(pages if isinstance(pages, list) else []):
            at = line_of(pages, index) or line
            if isinstance(entry, dict):
                children += self.legacy_group(entry, at)
            elif isinstance(entry, str):
                page = self.page(entry, at)
                if page:
                    children.append(self.node(None, page, [], at))
        title = group.get("group")
        if not isinstance(title, str) or not title.strip():
            return children
        return [self.node(" ".join(title.split()), None, children, line)] if children else []


def _version_folders(versions: list[set[str]], listed: set[str], root: str) -> set[str]:
    """The folders that hold the site's other versions (``v1.10.0/`` of crewAI's
    ``v1.10.0/en/...``, ``v1/``), each ending in ``/``: the first folder (below the
    site's) of 80% of a version's pages, where no page of the current docs is; the
    pages there that no navigation lists are that version's too."""
    prefix = root + "/" if root else ""
    found: set[str] = set()
    for pages in versions:
        tops = Counter(p[len(prefix) :].split("/", 1)[0] for p in pages if "/" in p[len(prefix) :])
        if not tops:
            continue
        top, n = tops.most_common(1)[0]
        folder = f"{prefix}{top}/"
        if 5 * n >= 4 * len(pages) and not any(p.startswith(folder) for p in listed):
            found.add(folder)
    return found


def _nodes(nodes: list[Any]) -> list[Any]:
    """Every node of a tree, depth first."""
    out = []
    for node in nodes:
        out += [node, *_nodes(node.children)]
    return out


def _first_page(group: Any) -> str:
    """The first page a ``mint.json`` group lists (its sub-groups' too), or ""."""
    pages = group.get("pages") if isinstance(group, dict) else None
    for entry in pages if isinstance(pages, list) else []:
        found = entry.strip("/") if isinstance(entry, str) else _first_page(entry)
        if found:
            return found
    return ""


def _unserved(
    root: str, read: Callable[[str], str | None], files: Collection[str]
) -> tuple[str, ...]:
    """The site's files Mintlify serves no page of: its snippets folder, and what its
    ``.mintignore`` and its default ignore list name (``.gitignore`` patterns, ``!``
    taking a file back)."""
    prefix = root + "/" if root else ""
    found = (
        [posixpath.join(root, SNIPPETS)]
        if any(f.startswith(f"{prefix}{SNIPPETS}/") for f in files)
        else []
    )
    ignore = read(posixpath.join(root, ".mintignore")) or ""
    rules = [_rule(line) for line in [*DEFAULT_IGNORED, *ignore.splitlines()]]
    rules = [r for r in rules if r is not None]
    for rel in (f[len(prefix) :] for f in files if f.startswith(prefix)):
        parts = rel.split("/")
        heads = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        out = False
        for taken_back, folder_only, anchored, pattern in rules:
            for head in heads[:-1] if folder_only else heads:
                if pattern.fullmatch(head if anchored else head.rsplit("/", 1)[-1]):
                    out = not taken_back
                    break
        if out:
            found.append(prefix + rel)
    return tuple(dict.fromkeys(found))


def _rule(line: str) -> tuple[bool, bool, bool, re.Pattern[str]] | None:
    """(taken back, folders only, anchored to the site's folder, the pattern) of a
    ``.gitignore`` line; ``None`` for a blank line or a comment."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    taken_back = text.startswith("!")
    text = text.lstrip("!")
    folder_only = text.endswith("/")
    text = text.strip("/")
    anchored = "/" in text
    if text.startswith("**/"):  # any depth, the site's own folder too
        text, anchored = text[3:], "/" in text[3:]
    return (taken_back, folder_only, anchored, re.compile(fnmatch.translate(text)))
