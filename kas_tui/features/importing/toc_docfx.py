"""docfx's tables of contents: ``toc.yml`` (items with ``name``, ``href``, ``items``,
``topicHref`` and ``tocHref``; an ``href`` to another ``toc.yml``/``TOC.md`` or to a
folder nests that table of contents there, loops are problems) and ``TOC.md``
(headings ``# [Title](href)`` or ``## Title``, nested by level). A ``toc.yml`` item with
a name and nothing else heads the items after it (docfx's own docs: "Get started",
"Essentials", "Advanced"), as docfx shows it. Mixed into
:mod:`.toc`'s reader, which gives it ``read``, ``files``, ``problems`` and ``node``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from kas_tui.features.importing.toc_formats import MD_HEADING, URL, load_lined, pruned, short

_MD_LINK = re.compile(
    r"""^\[(?P<title>[^\]]*)\]\(\s*(?P<href><[^>]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)$"""
)
_DOCFX_NESTED = ("toc.yml", "toc.yaml", "toc.md")


#: What a toc item may link by.
_LINKS = ("href", "tocHref", "topicHref")


class DocfxReader:
    """docfx's ``toc.yml`` and ``TOC.md`` read into nodes (see the module docstring)."""

    read: Callable[[str], str | None]
    files: Any
    problems: list[str]
    node: Callable[..., Any]
    _lower: dict[str, str] | None = None

    def find(self, rel: str) -> str | None:
        """``rel`` as the source spells it (docfx is case-insensitive, as Windows)."""
        if rel in self.files:
            return rel
        if self._lower is None:
            self._lower = {f.lower(): f for f in sorted(self.files, reverse=True)}
        return self._lower.get(rel.lower())

    # -- docfx.json's tables of contents -----------------------------------------------------------------------------

    def docfx(self, path: str, text: str, chain: tuple[str, ...]) -> list[Any]:
        chain = (*chain, path)
        if path.lower().endswith(".md"):
            return self._docfx_md(path, text, chain)
        data, error = load_lined(text)
        if error is not None:
            self.problems.append(
                f"{path}:{error[0]}: not valid YAML ({error[1]}): not read; fix the YAML"
            )
            return []
        if isinstance(data, dict):  # the form with a root ``items:`` (``Items:`` too)
            data = next((v for k, v in data.items() if str(k).lower() == "items"), None)
            if data is None:
                self.problems.append(
                    f"{path}: holds no items: list, so no entries: not read; write its "
                    "entries under items:"
                )
        return self._docfx_items(data, path, chain)

    def _docfx_items(self, items: Any, path: str, chain: tuple[str, ...]) -> list[Any]:
        nodes: list[Any] = []
        folder = posixpath.dirname(path)
        lines = getattr(items, "lines", [])
        header = None  # a name alone heads the items after it, as docfx shows it
        for index, item in enumerate(items if isinstance(items, list) else []):
            line = getattr(item, "line", lines[index] if index < len(lines) else None)
            if not isinstance(item, dict):
                self.problems.append(
                    f"{path}:{line}: is not a toc item ({short(item)}): skipped; write "
                    "name: and href:"
                )
                continue
            title = str(item["name"]) if item.get("name") is not None else None
            node = self.node(title, None, [], line, None if len(chain) == 1 else path)
            if title and not any(item.get(k) for k in (*_LINKS, "items")):
                header = node
                nodes.append(header)
                continue
            node.children = self._docfx_items(item.get("items"), path, chain)
            for key in _LINKS:
                href = item.get(key)
                if not isinstance(href, str) or not href.strip() or URL.match(href.strip()):
                    continue
                target = _join(folder, href)
                nested = None if key == "topicHref" else self._nested(target)
                where = f"{path}:{line}:" + (f" {title!r}" if title else "")
                where += f" ({key})" if key != "href" else ""
                if nested is not None:
                    self._nest(where, href, nested, chain, node)
                elif key != "tocHref" and self.find(target) and node.path is None:
                    node.path = self.find(target)
                elif not self.find(target) and href.strip().endswith("/") and not _off_source(href):
                    self.problems.append(
                        f"{where} names the folder {href}, which holds no toc.yml or TOC.md; "
                        "add one there or name a page"
                    )
                elif not self.find(target) and not _off_source(href):
                    self.problems.append(
                        f"{where} names {href}, which is not in the source ({target}); fix "
                        "the href or add the page"
                    )
            if node.path or node.children:
                (header.children if header is not None else nodes).append(node)
        return [n for n in nodes if n.path or n.children]

    def _nest(self, where: str, href: str, nested: str, chain: tuple[str, ...], node: Any) -> None:
        """The table of contents ``nested`` (named by ``href``) read below ``node``,
        unless it includes the one naming it: then said, as a loop."""
        if nested in chain:
            self.problems.append(
                f"{where} names {href}, a table of contents that includes this one "
                f"({' -> '.join((*chain, nested))}): not followed; remove the loop"
            )
        else:
            node.children += self.docfx(nested, self.read(nested) or "", chain)

    def _nested(self, target: str) -> str | None:
        """The table of contents ``target`` names: a toc file, or a folder's toc."""
        if posixpath.basename(target).lower() in _DOCFX_NESTED:
            return self.find(target)
        if target and self.find(target):
            return None  # a page
        for name in ("toc.yml", "TOC.yml", "toc.yaml", "toc.md", "TOC.md"):
            found = self.find(posixpath.join(target, name) if target else name)
            if found:
                return found
        return None

    def _docfx_md(self, path: str, text: str, chain: tuple[str, ...]) -> list[Any]:
        roots: list[Any] = []
        stack: list[tuple[int, Any]] = []
        folder = posixpath.dirname(path)
        for number, line in enumerate(text.splitlines(), start=1):
            heading = MD_HEADING.match(line)
            if not heading:
                continue
            level, label = len(heading.group(1)), heading.group(2).strip()
            link = _MD_LINK.match(label)
            node = self.node(link.group("title").strip() if link else label, None, [], number)
            node.file = None if len(chain) == 1 else path
            href = link.group("href").strip("<>").strip() if link else ""
            if href and not URL.match(href):
                target = _join(folder, href)
                nested = self._nested(target)
                if nested is not None:
                    self._nest(f"{path}:{number}:", href, nested, chain, node)
                elif self.find(target):
                    node.path = self.find(target)
                elif not _off_source(href):
                    self.problems.append(
                        f"{path}:{number}: names {href}, which is not in the source "
                        f"({target}); fix the link or add the page"
                    )
            while stack and stack[-1][0] >= level:
                stack.pop()
            (stack[-1][1].children if stack else roots).append(node)
            stack.append((level, node))
        return pruned(roots)


def _off_source(href: str) -> bool:
    """Whether a TOC's ``href`` not in the source is a page of the site the docset is
    published on, as a URL is (``/azure/cloud-shell/quickstart?toc=...``: another
    docset's page): no mistake to fix."""
    return href.strip().startswith("/")


def _join(folder: str, href: str) -> str:
    target = unquote(href.split("#", 1)[0].split("?", 1)[0]).strip()
    target = target[2:] if target.startswith("~/") else target
    joined = target.lstrip("/") if target.startswith("/") else posixpath.join(folder, target)
    norm = posixpath.normpath(joined) if joined else "."
    return "" if norm == "." else norm
