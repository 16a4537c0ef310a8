"""A wiki's sidebar as a table of contents: GitHub's (Gollum) ``_Sidebar.md``.

A GitHub wiki is a folder of pages (``Page-Name.md``) with a ``_Sidebar.md`` shown
beside every page: headings name sections, bullet lists (nested by indentation) list
pages, and a page is named by a wiki link (``[[Page Name]]``, ``[[Link text|Page
Name]]``), a Markdown link to the page (``[Text](Page-Name)``, ``[Text](Page-Name.md)``)
or a link to its address (``https://github.com/owner/repo/wiki/Page-Name``). Pages are
found by name wherever they sit in the wiki, spaces written as hyphens, case ignored.

A line naming no page is a section when entries sit below it; a link to a page the wiki
does not hold is a problem (``file:line``, what, how to fix it); other addresses are no
entries.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any
from urllib.parse import unquote

import yaml

from kas_tui.features.importing.toc_formats import MARKDOWN_PAGES, MD_HEADING, URL

#: The sidebar's file name (compared in lower case).
SIDEBAR = "_sidebar.md"

_ITEM = re.compile(r"^([ \t]*)(?:[-*+]|\d+[.)])[ \t]+(.*)$")
_WIKI_LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
_MD_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_WIKI_ADDRESS = re.compile(r"^(?:https?:)?//[^/]+/[^/]+/[^/]+/wiki(?:/([^?#]*))?/?(?:[?#]|$)", re.I)
#: The page a wiki's own address (``https://github.com/o/r/wiki``) opens.
_HOME = "Home"
_EMPHASIS = re.compile(r"(\*\*|__|\*|_|`)(.+?)\1")
#: An HTML tag in a sidebar line (an anchor GitBook writes into its headings).
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
#: A Markdown backslash escape of ASCII punctuation (``\_``).
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def page_key(name: str) -> str:
    """A page name as the wiki matches it: case ignored, spaces as hyphens."""
    return "-".join(unquote(name).strip().lower().split())


def wiki_sidebar_roots(
    path: str,
    text: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
    find: Callable[[str], str | None] | None = None,
    missing: Callable[[str], str] | None = None,
) -> list[Any]:
    """The entries of the sidebar ``path`` (its ``text``) as ``node(title, path,
    children, line)`` trees; links to pages ``files`` does not hold go to ``problems``.
    ``find`` tells the page a link names (default: as a wiki finds it), ``missing`` what
    is wrong with one naming none and how to fix it (default: not in the wiki)."""
    pages: dict[str, str] = {}
    for rel in sorted(files, key=lambda f: (f.count("/"), f)):  # the shallowest wins
        stem, ext = posixpath.splitext(posixpath.basename(rel))
        if ext.lower() in MARKDOWN_PAGES and not stem.startswith("_"):
            pages.setdefault(page_key(stem), rel)
    roots: list[Any] = []
    stack: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        heading, item = MD_HEADING.match(line), _ITEM.match(line)
        if heading:
            level, label = len(heading.group(1)), heading.group(2)
        elif item:
            level, label = 7 + len(item.group(1).expandtabs(4)) // 2, item.group(2)
        elif _WIKI_LINK.search(line) or _MD_LINK.search(line):
            level, label = 7, line
        else:
            continue
        title, target = _entry(label.strip())
        page = None
        if target is not None:
            page = find(target) if find else _find(target, path, files, pages)
            if page is None:
                said = (
                    missing(target)
                    if missing
                    else f"names the page {target}, which is not in the wiki; fix the link or "
                    "add the page"
                )
                problems.append(f"{path}:{number}: {said}")
        entry = node(title or None, page, [], number)
        while stack and stack[-1][0] >= level:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(entry)
        stack.append((level, entry))
    return roots


#: mdBook's and GitBook's table of contents (compared in lower case).
SUMMARY = "summary.md"
#: A GitBook space's config in its repository: the folder its pages are in (``root``)
#: and its map of moved pages (``redirects``).
GITBOOK_CONFIG = ".gitbook.yaml"


def gitbook_config(read: Callable[[str], str | None], files: Collection[str]) -> dict[str, Any]:
    """The source's ``.gitbook.yaml`` (at its root) as data; ``{}`` without one."""
    if GITBOOK_CONFIG not in files:
        return {}
    try:
        data = yaml.safe_load(read(GITBOOK_CONFIG) or "")
    except (yaml.YAMLError, RecursionError):  # lists hundreds deep
        return {}
    return data if isinstance(data, dict) else {}


def gitbook_root(read: Callable[[str], str | None], files: Collection[str]) -> str | None:
    """The folder a GitBook space's pages are in (``root: ./docs/`` is ``docs``, the
    source's own is ""), ``None`` without a ``.gitbook.yaml``."""
    if GITBOOK_CONFIG not in files:
        return None
    root = gitbook_config(read, files).get("root")
    folder = posixpath.normpath(str(root).strip().strip("/")) if isinstance(root, str) else "."
    return "" if folder in (".", "") or folder.startswith("..") else folder


#: The titles a summary opens with that name no part of the book (GitBook's too).
_SUMMARY_TITLES = frozenset({"summary", "table of contents", "contents"})


def summary_roots(
    path: str,
    text: str,
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
    *,
    mdbook: bool = False,
) -> list[Any] | None:
    """An mdBook or GitBook ``SUMMARY.md``: part headings (``# User guide``) over nested
    lists of links to the book's pages (``- [Installation](guide/installation.md)``),
    as a wiki's sidebar is read; its own title (``# Summary``) names no part; a draft
    chapter (``[Draft]()``) has no page. An ``mdbook``'s title is its first line when
    that is a level-1 heading, whatever it says, as mdBook reads it (the Rust book's
    ``# The Rust Programming Language``), HTML before it skipped. ``None`` when it links
    fewer than two pages: then it is a page called Summary, no table of contents."""
    lines = text.splitlines()
    comment = False
    for n, line in enumerate(lines):
        bare = line.strip()
        if comment or bare.startswith("<"):  # HTML (a comment) before the title
            comment = (comment or bare.startswith("<!--")) and "-->" not in bare
            continue
        if bare:
            heading = MD_HEADING.match(line)
            told = heading is not None and heading.group(2).strip().lower() in _SUMMARY_TITLES
            if heading and (told or (mdbook and len(heading.group(1)) == 1)):
                lines[n] = ""  # blanked: the other lines keep their numbers
            break
    said: list[str] = []
    roots = wiki_sidebar_roots(path, "\n".join(lines), files, said, node)

    def pages(nodes: list[Any]) -> int:
        return sum((1 if n.path else 0) + pages(n.children) for n in nodes)

    if pages(roots) < 2:
        return None
    problems += [p.replace("which is not in the wiki", "which is not in the book") for p in said]
    return roots


def _entry(label: str) -> tuple[str, str | None]:
    """The title a sidebar line gives and the page it names (``None``: a section or an
    address outside the wiki)."""
    wiki = _WIKI_LINK.search(label)
    if wiki:
        text, page = wiki.group(1).strip(), (wiki.group(2) or wiki.group(1)).strip()
        return text, page.split("#", 1)[0].strip() or None  # [[Page#Section]]: the page
    link = _MD_LINK.search(label)
    if link:  # a Markdown escape is the character it escapes ("error\_001.md")
        text, href = _unescape(link.group(1).strip()), _unescape(link.group(2).strip())
        address = _WIKI_ADDRESS.match(href)
        if address:  # the wiki's own address opens its Home page
            return text, unquote(address.group(1) or "").rstrip("/") or _HOME
        if URL.match(href) or not href or href.startswith("#"):
            return _plain(label[: link.start()] + text + label[link.end() :]), None
        return text, href.split("#", 1)[0].split("?", 1)[0]
    return _plain(label), None


def _plain(label: str) -> str:
    """A line's words: no emphasis marks, no HTML tag (GitBook's heading anchors,
    ``## Onchain Data <a href="#guides" id="guides"></a>``), no escapes."""
    return _unescape(_EMPHASIS.sub(r"\2", _TAG.sub("", label))).strip(" :")


def _unescape(text: str) -> str:
    return _ESCAPED.sub(r"\1", text) if "\\" in text else text


def _find(target: str, sidebar: str, files: Collection[str], pages: dict[str, str]) -> str | None:
    """The file a link names: a path to a page (``Guide/Setup.md``), else a page name."""
    if target.lower().endswith(MARKDOWN_PAGES):
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(sidebar), unquote(target)))
        if joined in files:
            return joined
        target = posixpath.splitext(posixpath.basename(target))[0]
    return pages.get(page_key(posixpath.basename(target)))


# --- Azure DevOps --------------------------------------------------------------------------

#: An Azure DevOps wiki's order file: in each folder, the pages in the order shown.
ORDER = ".order"
#: The hidden folder an Azure DevOps wiki keeps its pages' images and files in.
ATTACHMENTS = ".attachments"


def order_title(name: str) -> str:
    """A page's title from its file name as Azure DevOps writes it: a space is ``-``,
    a hyphen ``%2D``, other characters percent-escaped (``Set-up-%2D-Linux``)."""
    return unquote(name.replace("-", " ")).strip()


def azure_order_roots(
    path: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    problems: list[str],
    node: Callable[..., Any],
) -> list[Any]:
    """The pages of an Azure DevOps wiki as ``node(title, path, children, line)`` trees,
    from its root ``.order`` (``path``): each line names a page (``Name`` is
    ``Name.md``) whose sub-pages are in the folder ``Name/``, ordered by that folder's
    ``.order`` or, without one, by name; names with neither are problems."""
    folders = {posixpath.dirname(f) for f in files}
    for folder in list(folders):
        while folder:
            folder = posixpath.dirname(folder)
            folders.add(folder)
    return _ordered(posixpath.dirname(path), read, files, folders, problems, node, set())


def _ordered(
    folder: str,
    read: Callable[[str], str | None],
    files: Collection[str],
    folders: set[str],
    problems: list[str],
    node: Callable[..., Any],
    seen: set[str],
) -> list[Any]:
    seen.add(folder)
    order = posixpath.join(folder, ORDER) if folder else ORDER
    text = read(order) if order in files else None
    if text is None:  # no order file: the folder's pages by name, as the wiki lists them
        names = sorted(
            posixpath.splitext(posixpath.basename(f))[0]
            for f in files
            if posixpath.dirname(f) == folder and f.lower().endswith(".md")
        )
        lines = [(None, n) for n in names]
    else:
        lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    nodes = []
    for number, name in lines:
        base = posixpath.join(folder, name) if folder else name
        page = base + ".md" if base + ".md" in files else None
        children = []
        if base in folders and base not in seen:
            children = _ordered(base, read, files, folders, problems, node, seen)
        if page is None and not children:
            if number is not None:
                problems.append(
                    f"{order}:{number}: names the page {name}, which is not in the wiki "
                    f"(no {base}.md); fix the line or add the page"
                )
            continue
        nodes.append(
            node(order_title(name), page, children, number, None if folder == "" else order)
        )
    return nodes
