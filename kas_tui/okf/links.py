"""Markdown links, found with a real Markdown parser (a link in a code block is not a link)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]")
#: A relative path of plain names (none of them "." or ".."): resolves by joining.
_PLAIN_RELATIVE = re.compile(r"[\w-][\w.-]*(?:/[\w-][\w.-]*)*/?", re.ASCII)


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


@dataclass(frozen=True)
class Target:
    """Where a link points, relative to the package root.

    ``kind`` is ``internal`` (``path`` is a root-relative POSIX path, ``''`` for the root),
    ``external`` (a URL), ``anchor`` (same document), or ``outside`` (leaves the
    package: never followed).
    """

    kind: str
    path: str = ""
    fragment: str = ""


def resolve(source: str, target: str) -> Target:
    """Resolve link ``target`` found in file ``source`` (root-relative POSIX path).

    ``/``-rooted targets start at the package root; others at ``source``'s folder.
    ``#fragment`` and ``?query`` are not part of the path.
    """
    if _PLAIN_RELATIVE.fullmatch(target):  # the usual "doc.md", "sub/", "a/b.md": no normpath
        folder = posixpath.dirname(source)
        path = target.rstrip("/")
        return Target("internal", f"{folder}/{path}" if folder else path)
    target = target.strip()
    if not target or target.startswith("#"):
        return Target("anchor", source, target[1:])
    raw = unquote(target)  # the Markdown parser writes ``C:\\x`` as ``C:%5Cx``
    if _WINDOWS_PATH.match(raw) or raw.startswith("\\\\"):
        return Target("outside", target)
    if _SCHEME.match(target):
        scheme = target.split(":", 1)[0].lower()
        return Target("outside" if scheme == "file" else "external", target)
    if target.startswith("//"):
        return Target("external", target)
    path, _, fragment = target.partition("#")
    path = unquote(path.partition("?")[0])
    if path.startswith("/"):
        joined = path.lstrip("/")
    else:
        joined = posixpath.join(posixpath.dirname(source), path)
    norm = posixpath.normpath(joined) if joined else "."
    if norm == ".." or norm.startswith("../"):
        return Target("outside", norm, fragment)
    return Target("internal", "" if norm == "." else norm, fragment)


def relative_link(source: str, path: str, *, folder: bool = False) -> str:
    """The relative link text from file ``source`` to root-relative ``path``."""
    rel = posixpath.relpath(path or ".", posixpath.dirname(source) or ".")
    if folder:
        rel = "" if rel == "." else rel.rstrip("/") + "/"
        return rel or "./"
    return rel
