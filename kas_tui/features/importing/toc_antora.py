"""An Antora component's navigation: the ``nav.adoc`` files its ``antora.yml`` lists,
in order (a ``modules`` folder built alone: each module's ``nav.adoc``, ``ROOT``'s
first), read as Antora reads them (pure: files through ``read``).

A nav file is AsciiDoc lists: ``.Title`` over a list names it (a section), ``*``,
``**``... nest, an item ``xref:page.adoc[Text]`` is a page (an empty ``[]`` leaves it
its own title), an item of words a section of the items below it, an item linking an
address no entry. Its includes and conditionals are read as a page's are
(:mod:`.asciidoc_source`). An xref naming no page of the source is a problem
(``file:line``, what, how to fix it).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection
from typing import Any

from kas_tui.features.importing.antora import (
    AntoraSite,
    Component,
    modules_component,
    read_component,
)
from kas_tui.features.importing.asciidoc_inline import plain_code, strip_quotes
from kas_tui.features.importing.asciidoc_source import entry, read_source, substitute

Read = Callable[[str], "str | None"]

#: The site's pages, as :meth:`.toc_model.Toc.static_files` reads a site's folder.
NAV = "nav.adoc"
_ITEM = re.compile(r"^\s*(\*{1,6})\s+(.*)$")
_CAPTION = re.compile(r"^\.([^.\s].*)$")
_XREF = re.compile(r"xref:([^\s\[\]]+)\[((?:[^\]\\]|\\.)*)\]")
_LINK = re.compile(r"(?:link:|https?://)\S*\[((?:[^\]\\]|\\.)*)\]")


def is_antora_file(path: str) -> bool:
    """Whether ``path`` is an Antora component's ``antora.yml`` or a module's nav file
    (``modules/<module>/nav.adoc``, ``<module>/nav.adoc`` of a modules folder)."""
    name = posixpath.basename(path)
    if name == "antora.yml":
        return True
    return name == NAV and path.count("/") >= 1


def component_of(path: str, read: Read, files: Collection[str]) -> Component | None:
    """The component ``path`` (an ``antora.yml``, or a nav file of a modules folder
    built alone) is part of."""
    if posixpath.basename(path) == "antora.yml":
        return read_component(path, read(path) or "", files)
    if path.count("/") == 1:
        return modules_component(files)
    return None


def antora_roots(
    component: Component,
    read: Read,
    files: Collection[str],
    problems: list[str],
    node: Any,
) -> list[Any]:
    """The component's navigation as TOC nodes (``node`` is :class:`.toc_model.TocNode`)."""
    site = AntoraSite(component, files, read)
    roots: list[Any] = []
    for nav in component.nav:
        text = read(nav)
        if text is None:
            continue
        attributes = dict(component.attributes)
        attributes.update(site.attributes_for(nav))
        attributes["page-module"] = component.module_name(nav)
        source = read_source(text, nav, site, dict(attributes), component.locked)
        problems += [f"{p.file}:{p.line}: {p.message}" for p in source.problems]
        caption: Any = None
        stack: list[tuple[int, Any]] = []
        for line in source.lines:
            raw = line.text
            if not raw.strip() or raw.startswith("//"):
                continue
            if raw.startswith(":") and (found := entry(raw)) is not None:
                if found[1] is not None and found[0] not in component.locked:
                    attributes[found[0]] = substitute(found[1], attributes)
                continue
            title = _CAPTION.match(raw)
            if title is not None:
                caption = node(_words(title.group(1), attributes), None, line=line.number, file=nav)
                roots.append(caption)
                stack = []
                continue
            item = _ITEM.match(raw)
            if item is None:
                continue
            depth, said = len(item.group(1)), item.group(2)
            made = _entry(said, line, site, attributes, problems, node)
            if made is None:
                continue
            while stack and stack[-1][0] >= depth:
                stack.pop()
            parent = stack[-1][1].children if stack else caption.children if caption else roots
            parent.append(made)
            stack.append((depth, made))
    return roots


def _entry(
    said: str,
    line: Any,
    site: AntoraSite,
    attributes: dict[str, str],
    problems: list[str],
    node: Any,
) -> Any:
    xref = _XREF.search(said)
    if xref is not None:
        target = xref.group(1).partition("#")[0]
        if not target.endswith(".adoc") and "$" not in target:
            target += ".adoc"
        page = site.page(substitute(target, attributes), line.file)
        words = _words(xref.group(2), attributes) or None
        if page is None:
            problems.append(
                f"{line.file}:{line.number}: xref:{xref.group(1)}[] names no page of the "
                "source (another component's, or a page moved): no entry; fix the xref or "
                "add the page"
            )
            return node(words, None, line=line.number, file=line.file) if words else None
        return node(words, page, line=line.number, file=line.file)
    if _LINK.search(said):
        return None  # an address: the site's, no page of the source
    words = _words(said, attributes)
    return node(words, None, line=line.number, file=line.file) if words else None


def _words(text: str, attributes: dict[str, str]) -> str:
    text = _LINK.sub(r"\1", text)
    text = strip_quotes(plain_code(text, attributes, None).replace("`", ""))
    return " ".join(text.replace("\\]", "]").split())


def antora_toc_files(component: Component) -> frozenset[str]:
    """The files the tree is read from besides ``antora.yml``: its nav files."""
    return frozenset(component.nav)
