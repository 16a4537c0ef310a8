"""An MkDocs site's table of contents: the ``nav`` of ``mkdocs.yml`` or of another
``mkdocs*.yml`` (Textual keeps it in ``mkdocs-nav.yml``).

Its entries are ``"page.md"``, ``{"Title": "page.md"}`` and ``{"Section": [...]}``,
paths relative to ``docs_dir`` (the file's own, else the one its ``INHERIT`` chain or
a sibling ``mkdocs*.yml`` sets, else ``docs``), itself relative to the config's folder.
``!!python/name:...`` and other unknown tags read as ``None``. The theme's
``custom_dir`` is a folder of templates, no pages. A site's config without a ``nav``
has the navigation MkDocs (or its awesome-pages plugin) makes of the pages folder
(:mod:`.toc_mkdocs_pages`), or its literate-nav plugin's Markdown lists
(:mod:`.toc_mkdocs_literate`), which may also fill a folder its ``nav`` names.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any
from urllib.parse import unquote

from kas_tui.core.okf import frontmatter
from kas_tui.core.okf.errors import FormatError
from kas_tui.features.importing.toc_formats import URL, load_lined, short
from kas_tui.features.importing.toc_mkdocs_literate import LiterateNav, literate_options
from kas_tui.features.importing.toc_mkdocs_pages import folder_nav
from kas_tui.text import prose

#: An MkDocs config's name (``mkdocs.yml``, ``mkdocs-nav.yml``, ``mkdocs.insiders.yml``).
MKDOCS = re.compile(r"mkdocs[\w.-]*\.ya?ml", re.IGNORECASE)


def is_mkdocs_config(path: str) -> bool:
    return MKDOCS.fullmatch(posixpath.basename(path)) is not None


def mkdocs_nav(
    path: str,
    text: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> tuple[list[Any], str, tuple[str, ...], frozenset[str]] | None:
    """The ``nav`` of the MkDocs config ``text`` (the file ``path``) as nodes made by
    ``node(title, path, children, line)``, its pages folder, its theme's folders and
    the literate nav files read;
    without a ``nav``, the folders' (:func:`.toc_mkdocs_pages.folder_nav`); ``None``
    when it configures no site. A nav that cannot be read is said, and reads as no
    nodes."""
    data, error = load_lined(text)
    if error is not None:
        if re.search(r"^nav\s*:", text, re.MULTILINE):
            problems.append(
                f"{path}:{error[0]}: not valid YAML ({error[1]}): its nav was not read; "
                "fix the YAML"
            )
            return [], "", (), frozenset()
        return None
    if not isinstance(data, dict) or ("nav" not in data and not _site_config(data)):
        return None
    if "nav" not in data and _nav_beside(path, read, files):
        return None  # Textual's mkdocs-common.yml: the nav is in mkdocs-nav.yml beside it
    folder = posixpath.dirname(path)
    docs_dir = _docs_dir(path, data, read, files)
    base = posixpath.normpath(posixpath.join(folder, docs_dir))
    if base == ".." or base.startswith(("../", "/")):
        problems.append(
            f"{path}:1: docs_dir {docs_dir} leads outside the source: the nav was not "
            "read; build from the folder holding the docs"
        )
        return [], "", (), frozenset()
    base = "" if base == "." else base
    theme = data.get("theme")
    custom = theme.get("custom_dir") if isinstance(theme, dict) else None
    themes: tuple[str, ...] = ()
    if isinstance(custom, str) and custom.strip():
        inside = posixpath.normpath(posixpath.join(folder, custom.strip()))
        themes = (inside,) if inside != "." and not inside.startswith("..") else ()
    literate = literate_options(data.get("plugins"))
    lists = LiterateNav(*literate, files, read, problems, node) if literate else None
    if "nav" not in data and lists is not None and lists.holds(base):
        roots = lists.folder(base)  # the pages folder's own nav file, else its pages
        return (roots, base, themes, frozenset(lists.read_files)) if roots else None
    if "nav" not in data:  # MkDocs' own navigation of the pages folder, or awesome-pages'
        awesome = any("awesome-pages" in str(p) for p in _plugins(data)) or any(
            f.startswith(f"{base}/" if base else "") and posixpath.basename(f) == ".pages"
            for f in files
        )  # a wrapper plugin (TechDocs') may bring awesome-pages in: its .pages files say so
        roots = folder_nav(base, files, read, problems, node, awesome=awesome)
        return (roots, base, themes, frozenset()) if roots else None  # no pages: not this site
    nav = data["nav"]
    if not isinstance(nav, list):
        problems.append(
            f"{path}:{getattr(data, 'lines', {}).get('nav', 1)}: nav is not a list: "
            "not read; write it as a list of pages and sections"
        )
        return [], base, (), frozenset()
    roots = _Nav(path, base, files, problems, node, lists, read).items(nav)
    return roots, base, themes, frozenset(lists.read_files if lists else ())


def _nav_beside(path: str, read: Callable[[str], str | None], files: Collection[str]) -> bool:
    """Whether another MkDocs config beside ``path`` holds a ``nav``."""
    folder = posixpath.dirname(path)
    for other in files:
        if other != path and posixpath.dirname(other) == folder and is_mkdocs_config(other):
            data = _safe(read(other))
            if isinstance(data, dict) and "nav" in data:
                return True
    return False


def _plugins(data: dict[str, Any]) -> list[Any]:
    plugins = data.get("plugins")
    if isinstance(plugins, dict):
        return list(plugins)
    if isinstance(plugins, list):
        return [next(iter(p)) if isinstance(p, dict) and p else p for p in plugins]
    return []


def _site_config(data: dict[str, Any]) -> bool:
    """Whether a config without a ``nav`` configures a site (``site_name``, as MkDocs
    requires), rather than being another tool's file named alike."""
    return isinstance(data.get("site_name"), str) and bool(data["site_name"].strip())


def _docs_dir(
    path: str, data: dict[str, Any], read: Callable[[str], str | None], files: Collection[str]
) -> str:
    seen, current = {path}, path
    config: Any = data
    while isinstance(config, dict):  # its own, then the INHERIT chain
        if isinstance(config.get("docs_dir"), str) and config["docs_dir"].strip():
            return config["docs_dir"].strip().rstrip("/")
        parent = config.get("INHERIT")
        if not isinstance(parent, str):
            break
        current = posixpath.normpath(posixpath.join(posixpath.dirname(current), parent))
        if current in seen:
            break
        seen.add(current)
        config = _safe(read(current))
    folder = posixpath.dirname(path)
    siblings = [f for f in files if posixpath.dirname(f) == folder and is_mkdocs_config(f)]
    # mkdocs.yml first, then the others by name (.yml before .yaml)
    for other in sorted(
        siblings, key=lambda f: (_name(f) != "mkdocs.yml", _name(f).endswith(".yaml"), f)
    ):
        if other not in seen:
            config = _safe(read(other))
            if isinstance(config, dict) and isinstance(config.get("docs_dir"), str):
                return config["docs_dir"].strip().rstrip("/") or "docs"
    return "docs"


def _name(path: str) -> str:
    return posixpath.basename(path).lower()


class _Nav:
    def __init__(
        self,
        path: str,
        base: str,
        files: Collection[str],
        problems: list[str],
        node: Callable[..., Any],
        lists: LiterateNav | None = None,
        read: Callable[[str], str | None] = lambda _path: None,
    ) -> None:
        self.path, self.base, self.files, self.problems, self.node = (
            path,
            base,
            files,
            problems,
            node,
        )
        self.lists = lists  # the literate-nav plugin's: a folder named is its nav file's
        self.read = read

    def items(self, items: list[Any]) -> list[Any]:
        nodes: list[Any] = []
        lines = getattr(items, "lines", [])
        for index, item in enumerate(items):
            line = lines[index] if index < len(lines) else None
            title, value = None, item
            if isinstance(item, dict) and len(item) == 1:
                title, value = next(iter(item.items()))
                title = str(title)
            elif not isinstance(item, str):
                self.problems.append(
                    f"{self.path}:{line}: is not a nav entry ({short(item)}): skipped; write "
                    '"page.md", Title: page.md or Section: [entries]'
                )
                continue
            if isinstance(value, list):
                children = self.items(value)
                if title is not None and not title.strip() and children:
                    # a section the nav leaves untitled ("": [learn/index.md, ...], as
                    # FastAPI's) is named by its first page, as that page is titled
                    title = self.title_of(children[0]) or title
                if children:  # a section whose pages are all missing leads nowhere
                    nodes.append(self.node(title, None, children, line))
            elif isinstance(value, str) and value.strip() and not URL.match(value.strip()):
                rel = unquote(value.strip().lstrip("/"))
                page = posixpath.normpath(posixpath.join(self.base, rel))
                if page in self.files:
                    nodes.append(self.node(title, page, [], line))
                elif self.lists is not None and self.lists.holds(page):
                    children = self.lists.folder(page)
                    if children:
                        nodes.append(self.node(title, None, children, line))
                else:
                    self.problems.append(
                        f"{self.path}:{line}: nav names {value}, which is not in the source "
                        f"({page}); fix the nav or add the page"
                    )
        return nodes

    def title_of(self, node: Any) -> str | None:
        """The title MkDocs shows for a nav entry: the nav's, else its page's front
        matter ``title``, else the page's first level-1 heading."""
        if node.title or not node.path:
            return node.title
        text = self.read(node.path) or ""
        try:
            meta = frontmatter.parse(text)
        except FormatError:
            meta = None
        own = meta.data.get("title") if meta is not None else None
        if isinstance(own, str) and own.strip():
            return own.strip()
        return prose.first_heading(text[frontmatter.body_start(text) :]) or None


def _safe(text: str | None) -> Any:
    return load_lined(text)[0] if text else None
