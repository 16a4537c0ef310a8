"""Markdown links as markdown-it reads them (a link in a code block is not a link).

The one CommonMark parser the package's link readers share: :mod:`.links` (extraction,
spans, rewriting) and :mod:`.scan` (the fast body scanner, whose reference path it is).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


class Link(NamedTuple):
    """A link in a Markdown body: its target as written, its text, and its 1-based line.

    A named tuple: packages hold hundreds of thousands of links, and tuples are cheap to
    build, compare and cache.
    """

    target: str
    text: str
    line: int


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt  # imported on first use: a warm check never needs it

    md = MarkdownIt("commonmark")
    # We never render HTML, so keep every link: the default check drops ``file:`` (and
    # ``javascript:``) links, which would hide a link leaving the package.
    md.validateLink = lambda url: True
    return md


def extract_links(markdown: str, *, first_line: int = 1) -> list[Link]:
    """Every inline link and image target in ``markdown``, in order.

    ``first_line`` is the file line the text starts on (after the frontmatter).
    """
    return links_in_tokens(_parser().parse(markdown), first_line=first_line)


def links_in_tokens(tokens: list, *, first_line: int = 1) -> list[Link]:
    """The links and images of markdown-it block tokens (see :func:`extract_links`)."""
    links: list[Link] = []
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        line = first_line + (token.map[0] if token.map else 0)
        text_parts: list[str] | None = None
        target = ""
        for child in token.children:
            if child.type in ("softbreak", "hardbreak"):
                line += 1
            elif child.type == "link_open":
                target = str(child.attrs.get("href", ""))
                text_parts = []
            elif child.type == "link_close" and text_parts is not None:
                links.append(Link(target, "".join(text_parts), line))
                text_parts = None
            elif child.type == "image":
                links.append(Link(str(child.attrs.get("src", "")), child.content, line))
            elif text_parts is not None and child.type in ("text", "code_inline"):
                text_parts.append(child.content)
    return links
