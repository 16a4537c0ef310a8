"""What :mod:`toc` reads with: YAML with line numbers, Docusaurus sidebars, and what
tells an address from a path.

``load_lined`` reads YAML (JSON too) as dicts and lists that know their lines; tags it
does not know (MkDocs's ``!!python/name:...``, ``!ENV``) read as ``None``.
``docusaurus_roots`` reads ``sidebars.json``, or ``sidebars.js``/``sidebars.ts`` when
the object it exports is plain data (no code: no spreads, calls, functions or
variables; a TypeScript type on the ``const`` is skipped).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any, NamedTuple

import yaml

from kas_tui.core.okf.index_layout import folder_title
from kas_tui.core.okf.links import SCHEME
from kas_tui.features.importing.js_literals import (
    blank_js,
    exported_object,
    js_object,
    js_option,
    spread_notes,
    string_option,
    without_computed,
)
from kas_tui.text.title_words import identifier_words


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
    except RecursionError:  # lists in lists hundreds deep: no table of contents
        return None, (1, "nested too deeply to read")


# --- Docusaurus ----------------------------------------------------------------------------

_PAGE = (".md", ".mdx")
#: An address (``https:``, ``mailto:``, ``//host``), not a path in the source: no entry.
URL = re.compile(f"{SCHEME.pattern}|^//")
#: An ATX heading line (``## Title``, ``# [Title](page.md)``): its marks and its text.
MD_HEADING = re.compile(r"^(#{1,6})(?:[ \t]+|(?=\[))(.*?)(?:[ \t]+#+)?[ \t]*$")
#: The pages of a wiki or a Sphinx project.
MARKDOWN_PAGES = (".md", ".markdown")
#: What a site generator makes pages of (MkDocs' Markdown extensions, Docusaurus' MD
#: and MDX); every other file in its docs folder is served as it is.
#: The folders a site serves from its root as they are (VitePress' and Astro's public/,
#: VuePress' .vuepress/public/, Docusaurus' static/).
SERVED_AS_IS = ("public", "static")
SITE_PAGES = {
    "mkdocs": (".md", ".markdown", ".mdown", ".mkdn", ".mkd"),
    "docusaurus": (".md", ".mdx"),
    "starlight": (".md", ".mdx", ".mdoc"),
    "vitepress": (".md",),
    "vuepress": (".md",),
    "mintlify": (".mdx", ".md"),
    "docsify": (".md",),
    "nextra": (".mdx", ".md"),
    "fumadocs": (".mdx", ".md"),
    # a Jupyter Book's pages (those kas-tui converts), in the order an entry without
    # an extension is looked for; MyST-MD's
    "jupyter-book": (".md", ".ipynb", ".rst", ".markdown"),
    "myst": (".md", ".ipynb"),
    # a Sphinx project's: reStructuredText, MyST's Markdown and notebooks, and the other
    # suffixes its conf.py names (RstPages); a figure's PDF in _images/ is copied as it is
    "sphinx": (".rst", ".md", ".markdown", ".ipynb"),
    # an Antora component's: AsciiDoc in a module's pages/ (Toc.static_files)
    "antora": (".adoc",),
    # Jekyll's: its converters' (Markdown; AsciiDoc and Textile by plugin) and HTML; any
    # other file is copied as it is (jekyllrb.com's icomoon-selection.json and
    # latest_version.txt were built as documents "JSON data with the keys..." and
    # "Text file imported from latest_version.txt")
    "jekyll": (".md", ".markdown", ".mkdown", ".mkd", ".html", ".htm", ".adoc", ".textile"),
    # a Dendron vault's notes; its assets/ (images, PDFs its notes link to) as they are
    "dendron": (".md",),
}
_NUMBER_PREFIX = re.compile(r"^\d+[-_.]\s*")


def docusaurus_roots(
    path: str,
    text: str,
    base: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
    read: Callable[[str], str | None] | None = None,
) -> list[Any]:
    """The sidebars in ``text`` (the file ``path``) as nodes made by ``node(title,
    path, children, line)``; doc ids are pages in ``base`` (the ``docs`` folder).
    ``read`` reads the ``_category_.json`` files of autogenerated folders."""
    if path.lower().endswith((".js", ".ts", ".mjs", ".cjs")):
        # entries code makes inside the object (tRPC's ``...(env.TYPEDOC ? [typeDoc]
        # : [])``) are taken out and said; the rest is read
        plain, spreads = without_computed(blank_js(text))
        found = js_object(plain)
        if found is None:
            problems.append(
                f"{path}:1: its sidebars are built by code (no plain object after "
                "module.exports = or export default): not read; ship a sidebars.json to "
                "order the pages"
            )
            return []
        problems += spread_notes(path, text, found, spreads)
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
    reader = _Sidebars(path, base, files, problems, node, read)
    sidebars = [
        (
            str(name),
            reader.items(value if isinstance(value, list) else [value]),
            line_of(data, name),
        )
        for name, value in data.items()
    ]
    if len(sidebars) == 1:
        return sidebars[0][1]
    labels, doc_labels = _navbar_labels(path, files, read)
    opened = {page: name for doc, name in doc_labels.items() if (page := reader.find(doc))}

    def label(name: str, items: list[Any]) -> str | None:
        """The navbar's label for the sidebar ``name``: its own, else that of an item
        opening one of its docs (Jest's ``{type: 'doc', docId: 'api', label: 'API'}``,
        the doc whose ``id:`` is ``api``)."""
        if name in labels:
            return labels[name]
        queue = list(items)  # breadth first: the sidebar's own top items before deeper
        for item in queue:
            if getattr(item, "path", None) in opened:
                return opened[item.path]
            queue += getattr(item, "children", [])
        return None

    return [
        node(label(name, items) or sidebar_title(name), None, items, line)
        for name, items, line in sidebars
        if items
    ]


#: A flat object of a Docusaurus config naming a sidebar or a doc and its label, either
#: order: ``{type: "docSidebar", sidebarId: "builderSidebar", label: "Build", ...}``,
#: ``{type: 'doc', docId: 'api', label: 'API'}``.
_NAVBAR_ITEM = re.compile(r"\{[^{}]*\b(?:sidebarId|docId)\s*:[^{}]*\}")
_SIDEBAR_ID = re.compile(r"""\bsidebarId\s*:\s*['"`]([^'"`]+)['"`]""")
_DOC_ID = re.compile(r"""\bdocId\s*:\s*['"`]([^'"`]+)['"`]""")
_LABEL = re.compile(r"""\blabel\s*:\s*['"]([^'"]+)['"]""")


def _navbar_labels(
    sidebars: str, files: Collection[str], read: Callable[[str], str | None] | None
) -> tuple[dict[str, str], dict[str, str]]:
    """Sidebar id -> the label the site's navbar shows for it, and doc id -> the label
    of the navbar item opening that doc (its config beside the sidebars file, or above
    a versioned one's ``versioned_sidebars/``, read as text, never run): Miden's
    "builderSidebar" is "Build", Jest's sidebar opening with ``api`` is "API"."""
    folder = posixpath.dirname(sidebars)
    if posixpath.basename(folder) == "versioned_sidebars":
        folder = posixpath.dirname(folder)
    found: dict[str, str] = {}
    docs: dict[str, str] = {}
    for name in DOCUSAURUS_CONFIGS:
        config = posixpath.join(folder, name)
        text = read(config) if read is not None and config in files else None
        for item in _NAVBAR_ITEM.findall(text or ""):
            sidebar, doc, label = (
                _SIDEBAR_ID.search(item),
                _DOC_ID.search(item),
                _LABEL.search(item),
            )
            if sidebar and label:
                found.setdefault(sidebar.group(1), label.group(1))
            elif doc and label:
                docs.setdefault(doc.group(1), label.group(1))
    return found, docs


def sidebar_title(name: str) -> str:
    """A sidebar or tab id as words, when no label names it: "coreConceptsSidebar" is
    "Core concepts", "tutorial_sidebar" "Tutorial", "docs_tab" "Docs"."""
    words = identifier_words(name).split()
    if len(words) > 1 and words[-1] in ("sidebar", "tab"):
        words = words[:-1]
    return folder_title(" ".join(words)) if words else name


def line_of(container: Any, key: Any) -> int | None:
    """The line of the source an entry of a container read by :func:`load_lined` sits
    on (a mapping's ``key``, a list's index), ``None`` when not known."""
    lines = getattr(container, "lines", None)
    if isinstance(lines, dict):
        return lines.get(key)
    if isinstance(lines, list) and isinstance(key, int) and key < len(lines):
        return lines[key]
    return None


_ID_LINE = re.compile(r"^id:\s*['\"]?([^'\"\s#]+)['\"]?\s*$", re.M)
_SLUG_LINE = re.compile(r"^slug:\s*['\"]?([^'\"\s#]+)['\"]?\s*$", re.M)


def _front_matter_id(text: str, line: re.Pattern[str] = _ID_LINE) -> str:
    """A Docusaurus page's own ``id:`` (its front matter's; with ``line``, another
    key's), or ``""``."""
    if not text.startswith("---"):
        return ""
    end = text.find("\n---", 3)
    match = line.search(text[: end if end > 0 else 2000])
    return match.group(1) if match else ""


def docusaurus_slugs(
    base: str, files: Collection[str], read: Callable[[str], str | None]
) -> dict[str, str]:
    """Where the pages in ``base`` that say so are served, from ``base`` -> the page:
    a front matter's ``slug: /glossary`` from the docs' own address, ``slug: intro``
    from the page's folder (React Native's ``architecture-glossary.md`` is served at
    ``/architecture/glossary``)."""
    slugs: dict[str, str] = {}
    for f in sorted(files):
        if f.startswith(base + "/") and f.lower().endswith(_PAGE):
            slug = _front_matter_id(read(f) or "", _SLUG_LINE)
            if slug:
                folder = posixpath.dirname(f[len(base) + 1 :])
                key = slug.strip("/") if slug.startswith("/") else posixpath.join(folder, slug)
                slugs.setdefault(key, f)
    return slugs


def docusaurus_ids(
    base: str, files: Collection[str], read: Callable[[str], str | None]
) -> dict[str, str]:
    """Doc id -> page, for the pages in ``base``: a page's path without its extension
    and the number prefixes Docusaurus strips (``01-intro``), and its front matter's own
    ``id:`` in its folder (``GettingStarted.md`` with ``id: getting-started``)."""
    ids: dict[str, str] = {}
    for f in sorted(files):
        if f.startswith(base + "/") and f.lower().endswith(_PAGE):
            rel = posixpath.splitext(f[len(base) + 1 :])[0]
            stripped = "/".join(_NUMBER_PREFIX.sub("", p) for p in rel.split("/"))
            ids.setdefault(stripped, f)
            own = _front_matter_id(read(f) or "")
            if own:
                folder = posixpath.dirname(stripped)
                ids.setdefault(posixpath.join(folder, own) if folder else own, f)
    return ids


class _Sidebars:
    def __init__(
        self,
        path: str,
        base: str,
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
        read: Callable[[str], str | None] | None = None,
    ) -> None:
        self.path, self.base, self.files, self.problems, self.node = (
            path,
            base,
            files,
            problems,
            node,
        )
        self.read = read or (lambda _rel: None)
        self._ids: dict[str, str] | None = None

    def doc(self, doc_id: str, line: int | None) -> str | None:
        found = self.find(doc_id)
        if found is None:
            self.problems.append(
                f"{self.path}:{line}: names the doc {doc_id}, which is not in the source "
                f"(no {self.base}/{doc_id}.md or .mdx); fix the id or add the page"
            )
        return found

    def find(self, doc_id: str) -> str | None:
        """The page of the doc id ``doc_id``: by its path, else by its own ``id:``."""
        doc_id = doc_id.strip().strip("/")
        for ext in _PAGE:
            candidate = posixpath.join(self.base, doc_id + ext)
            if candidate in self.files:
                return candidate
        if self._ids is None:
            self._ids = docusaurus_ids(self.base, self.files, self.read)
        return self._ids.get(doc_id)

    def items(self, values: list[Any]) -> list[Any]:
        nodes: list[Any] = []
        for index, value in enumerate(values):
            line = getattr(value, "line", None) or line_of(values, index)
            if isinstance(value, str):
                page = self.doc(value, line)
                if page:
                    nodes.append(self.node(None, page, [], line))
            elif isinstance(value, dict) and "type" not in value:  # {"Label": [ids]}
                for label, inner in value.items():
                    children = self.items(inner if isinstance(inner, list) else [inner])
                    nodes.append(
                        self.node(str(label), None, children, line_of(value, label) or line)
                    )
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
                page = self.doc(str(link["id"]), line_of(value, "link") or line)
            items = value.get("items")
            children = self.items(items if isinstance(items, list) else [])
            return [self.node(label, page, children, line)] if page or children else []
        if kind == "autogenerated":
            folder = posixpath.normpath(posixpath.join(self.base, str(value.get("dirName", "."))))
            inside = sorted(
                f for f in self.files if f.startswith(folder + "/") and f.lower().endswith(_PAGE)
            )
            return self.autogenerated(folder, inside, line)
        return []  # "link" (a URL) and "html" are no pages

    def autogenerated(self, folder: str, pages: list[str], line: int | None) -> list[Any]:
        """The pages below ``folder`` as Docusaurus generates their sidebar: one
        category per sub-folder, labelled and placed by its ``_category_.json`` (or
        ``.yml``: ``label``, ``position``, a ``link`` to a doc), else by its name;
        pages and categories in the order of their number prefixes and names."""
        here: list[tuple[tuple[float, str], Any]] = []
        below: dict[str, list[str]] = {}
        for page in pages:
            rest = page[len(folder) + 1 :] if folder else page
            if "/" in rest:
                below.setdefault(rest.split("/", 1)[0], []).append(page)
            else:
                name = posixpath.basename(page)
                here.append(((_prefix(name), _NUMBER_PREFIX.sub("", name)), (page, None)))
        for sub, inside in below.items():
            meta = self.category(posixpath.join(folder, sub))
            label = meta.get("label")
            label = str(label) if isinstance(label, (str, int, float)) and str(label) else None
            label = label or _NUMBER_PREFIX.sub("", sub).replace("-", " ").replace("_", " ")
            position = meta.get("position")
            rank = float(position) if isinstance(position, (int, float)) else _prefix(sub)
            link, page = meta.get("link"), None
            if isinstance(link, dict) and link.get("type") == "doc" and link.get("id"):
                page = self.doc(str(link["id"]), line)
            children = self.autogenerated(posixpath.join(folder, sub), inside, line)
            children = [c for c in children if getattr(c, "path", None) != page or not page]
            item = (label, page, children)
            here.append(((rank, _NUMBER_PREFIX.sub("", sub)), item))
        here.sort(key=lambda pair: pair[0])
        out = []
        for _key, item in here:
            if len(item) == 2:
                out.append(self.node(None, item[0], [], line))
            else:
                label, page, children = item
                if page or children:
                    out.append(self.node(label, page, children, line))
        return out

    def category(self, folder: str) -> dict[str, Any]:
        """A folder's ``_category_.json`` (or ``_category_.yml``), ``{}`` without one."""
        for name in ("_category_.json", "_category_.yml", "_category_.yaml"):
            rel = posixpath.join(folder, name)
            if rel in self.files:
                data, _error = load_lined(self.read(rel) or "")
                return data if isinstance(data, dict) else {}
        return {}


def category_roots(
    files: Collection[str],
    read: Callable[[str], str | None],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any] | None:
    """A Docusaurus docs folder built without its site (no ``sidebars.js``): the
    sidebar Docusaurus generates from its folders, their ``_category_.json`` labels and
    positions and their number prefixes; ``None`` when no folder has a
    ``_category_`` file (then it is no Docusaurus docs folder)."""
    names = ("_category_.json", "_category_.yml", "_category_.yaml")
    if not any(posixpath.basename(f) in names for f in files):
        return None
    pages = sorted(f for f in files if f.lower().endswith(_PAGE))
    return _Sidebars("_category_.json", "", files, problems, node, read).autogenerated(
        "", pages, None
    )


def _prefix(name: str) -> float:
    """The number a Docusaurus file or folder name starts with (``01-intro``), else a
    rank after every numbered one."""
    found = re.match(r"\d+", name)
    return float(found.group()) if found and _NUMBER_PREFIX.match(name) else float("inf")


#: Where a Docusaurus config's docs options open (``docs: {``).
_DOCS_OPEN = re.compile(r"\bdocs\s*:\s*\(?\{")
#: A Docusaurus site's config files, beside its sidebars.
DOCUSAURUS_CONFIGS = ("docusaurus.config.js", "docusaurus.config.mjs", "docusaurus.config.ts")


def docusaurus_docs_dir(
    sidebars: str, read: Callable[[str], str | None], files: Collection[str]
) -> str:
    """The folder a Docusaurus site's docs live in: its config's docs ``path`` (read as
    text, never run; the docs options' own ``path``, not a version's), else ``docs``
    beside the sidebars file. A path leading outside the source is returned as it is
    (``../docs``): the caller says so."""
    folder = posixpath.dirname(sidebars)
    for name in (n for n in DOCUSAURUS_CONFIGS if posixpath.join(folder, n) in files):
        path = _docs_path(read(posixpath.join(folder, name)) or "")
        if path is not None:
            inside = posixpath.normpath(posixpath.join(folder, path))
            return "" if inside == "." else inside
    return posixpath.join(folder, "docs")


def docusaurus_trailing_slash(
    sidebars: str, read: Callable[[str], str | None], files: Collection[str]
) -> bool:
    """Whether the Docusaurus site of ``sidebars`` serves its pages with a trailing
    slash (its config's ``trailingSlash: true``: ``docs/cli.md`` at ``/cli/``), so a
    relative link is read from the page's own path, as a browser reads it."""
    folder = posixpath.dirname(sidebars)
    for name in (n for n in DOCUSAURUS_CONFIGS if posixpath.join(folder, n) in files):
        code = blank_js(read(posixpath.join(folder, name)) or "", strings=True)
        opened = exported_object(code)
        at = js_option(code, opened, "trailingSlash") if opened is not None else None
        return at is not None and code.startswith("true", at)
    return False


def _docs_path(config: str) -> str | None:
    """The ``path`` of a Docusaurus config's first ``docs: {...}`` options, when a
    plain string."""
    return docs_option(config, "path")


def docs_option(config: str, key: str) -> str | None:
    """The option ``key`` of a Docusaurus config's first ``docs: {...}`` options (the
    preset's), when a plain string."""
    code = blank_js(config)
    opened = _DOCS_OPEN.search(code)
    if opened is None:
        return None
    return string_option(code, opened.end() - 1, key)


def page_served_at(
    path: str, folder: str, files: Collection[str], exts: tuple[str, ...]
) -> str | None:
    """The page of ``files`` a site serves at ``path`` (its served path: no slashes
    around it, ``#fragment`` and ``?query`` dropped, ``.html``/``.md`` taken off) from
    its pages ``folder``: ``path`` plus one of ``exts``, else ``path/index`` plus one
    (``/start/`` is ``start/index.mdx``, ``/`` the folder's own index); ``None`` when
    none is."""
    path = re.sub(r"\.(?:md|html)$", "", path.split("#", 1)[0].split("?", 1)[0].strip("/"))
    stems = [path, posixpath.join(path, "index")] if path else ["index"]
    for stem in stems:
        for ext in exts:
            candidate = posixpath.normpath(posixpath.join(folder, stem + ext))
            if candidate in files:
                return candidate
    return None


class SiteTree(NamedTuple):
    """A site's sidebar as a folder-by-folder reader (Nextra, Fumadocs) gives it."""

    roots: list[Any]  # nodes made by ``node(title, path, children, line)``
    docs_dir: str  # the folder its pages are made from
    #: a page's path as the site serves it, from the source's root -> its source, where
    #: the folders do not say it (``app/guide`` for ``app/guide/page.mdx``)
    served_as: dict[str, str]
    #: pages that are their folder (``app/guide/page.mdx``, served at ``/guide``)
    folder_pages: frozenset[str] = frozenset()
    base_url: str = ""  # the path the site serves ``docs_dir`` at (``docs``), "" its root
    #: the files read for the tree that are no pages (each folder's ``meta.json``)
    also_read: frozenset[str] = frozenset()
    #: files that look like pages but the site serves none of (Nextra's ``app/`` serves
    #: ``page.mdx`` files only: an ``old.mdx`` beside one is a part it imports)
    unserved: tuple[str, ...] = ()
    #: a folder -> the title the site gives it (its ``_meta`` or ``meta.json`` title)
    folder_names: dict[str, str] = {}  # noqa: RUF012 - a NamedTuple's default, never changed


def pruned(nodes: list[Any]) -> list[Any]:
    """Without the entries that lead nowhere: no page and none below."""
    kept = []
    for node in nodes:
        node.children = pruned(node.children)
        if node.path or node.children:
            kept.append(node)
    return kept


def short(value: Any) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."
