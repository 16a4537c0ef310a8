"""What a tool result names: the paths an agent may open next.

Nothing is reachable until something the agent has seen names it:

- the catalog names ``SKILL.md`` and, through its location, the package root;
- a Markdown file read whole names the targets of its links and images (relative to
  its folder, or ``/``-rooted from the package root, as OKF §6 resolves them); in an
  ``index.md`` those links are the entries, and the cue is the entry's title and
  description;
- ``code`` spans holding a path that exists (``/index.md``, `` `references/` ``): the way
  SKILL.md files tell agents where to start; bare words (`` `status` ``) never count;
- frontmatter ``resource`` and ``sources[].resource`` values inside the package (read
  whole or peeked), since skills point agents at raw exports that way;
- a listing names each of its entries.

A named folder can be listed; naming a folder (``refunds/``) also names its
``index.md``, since a link to a bundle is a link to its index (RULES §4). Every folder
on a named path can be listed too. Targets that do not exist or leave the package are
named all the same: the agent saw them and may try them; the call then fails.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.links import resolve
from kas_tui.features.agent.sandbox import FILE, FOLDER, OUTSIDE, Sandbox
from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE, Outcome

# How a path was named.
CATALOG = "catalog"
ENTRY = "entry"
LINK = "link"
MENTION = "mention"
SOURCE = "source"
LISTING = "listing"
ON_PATH = "path"  # a folder on the way to a named path


@dataclass(frozen=True)
class Reveal:
    """A path named to the agent: ``how`` it was named, by which file (``source``),
    and the ``cue`` the agent had to choose it by (an entry's title and description,
    a link's text, a source's title)."""

    path: str
    folder: bool
    how: str
    cue: str = ""
    source: str = ""


def catalog_reveals() -> tuple[Reveal, ...]:
    """What the catalog entry names: SKILL.md and the package root."""
    return (
        Reveal("SKILL.md", False, CATALOG, "the skill's catalog entry"),
        Reveal("", True, CATALOG, "the folder holding SKILL.md"),
    )


def reveals_of(sandbox: Sandbox, outcome: Outcome) -> tuple[Reveal, ...]:
    """Every path the result of a successful call names, in the order the agent read it."""
    if not outcome.ok or outcome.path is None:
        return ()
    if outcome.tool == LISTDIR:
        found = _listing(outcome.path, outcome.entries)
    elif outcome.tool in (READFILE, PEEK) and outcome.path.endswith(".md"):
        found = _named_in_markdown(sandbox, outcome.path, outcome.text, outcome.tool == READFILE)
    else:
        return ()
    return tuple(_unique(found))


def _unique(reveals: Iterator[Reveal]) -> Iterator[Reveal]:
    seen: set[tuple[str, bool]] = set()
    for reveal in reveals:
        key = (reveal.path, reveal.folder)
        if key not in seen:
            seen.add(key)
            yield reveal


def _listing(folder: str, entries: tuple[str, ...]) -> Iterator[Reveal]:
    for name in entries:
        is_folder = name.endswith("/")
        path = posixpath.join(folder, name.rstrip("/")) if folder else name.rstrip("/")
        yield Reveal(path, is_folder, LISTING, name, folder)


def _named_in_markdown(sandbox: Sandbox, source: str, text: str, whole: bool) -> Iterator[Reveal]:
    try:
        parsed = fm.parse(text)
    except FormatError:
        parsed = None
    if parsed is not None and isinstance(parsed.data, dict):
        yield from _sources(sandbox, source, parsed.data)
    if not whole:
        return
    body = text[parsed.block.end :] if parsed is not None else text
    cues = _entry_cues(source, text) if posixpath.basename(source) == "index.md" else {}
    for kind, target, label in _links_and_code(body):
        if kind == "code":
            yield from _mention(sandbox, source, target, label)
            continue
        resolved = resolve(source, target)
        cue = cues.get(resolved.path)
        how = ENTRY if cue is not None else LINK
        yield from _target(sandbox, source, target, how, cue if cue is not None else label)


def _sources(sandbox: Sandbox, source: str, data: dict[str, Any]) -> Iterator[Reveal]:
    items: list[tuple[Any, Any]] = [(data.get("resource"), data.get("title"))]
    sources = data.get("sources")
    if isinstance(sources, list):
        items += [(s.get("resource"), s.get("title")) for s in sources if isinstance(s, dict)]
    for resource, title in items:
        if isinstance(resource, str) and resource.strip():
            cue = title if isinstance(title, str) else ""
            yield from _target(sandbox, source, resource, SOURCE, cue)


def _entry_cues(source: str, text: str) -> dict[str, str]:
    """Resolved target -> "Title - description" for the entries of an index."""
    cues: dict[str, str] = {}
    for entry in parse_index(text).entries:
        path = resolve(source, entry.target).path
        cue = f"{entry.title} - {entry.description}" if entry.description else entry.title
        cues.setdefault(path, cue)
    return cues


def _mention(sandbox: Sandbox, source: str, code: str, line: str) -> Iterator[Reveal]:
    """A path written as code, when it names something that exists in the package.

    The cue is the line it was written on (a table row of SKILL.md's entry points: "Can
    this customer get a refund? | `/billing/refund-policy.md`"), without the code spans
    and table or list marks; the path itself when the line says nothing else.
    """
    text = code.strip()
    if not text or any(c.isspace() for c in text) or "://" in text or text[0] in "#[-":
        return
    if "/" not in text and "." not in text:
        return  # a bare word such as `status`
    resolved = resolve(source, text)
    exists = resolved.kind == "internal" and sandbox.kind_of(resolved.path) in (FILE, FOLDER)
    if exists and resolved.path:
        yield from _target(sandbox, source, text, MENTION, _line_cue(line) or text)


_CODE_SPAN = re.compile(r"`+[^`]*`+")
_LIST_MARK = re.compile(r"^(?:[-*+>]\s+|\d{1,3}[.)]\s+)+")


def _line_cue(line: str) -> str:
    """A line's words without its code spans, table pipes and list or heading marks."""
    text = _CODE_SPAN.sub(" ", line).replace("|", " ")
    text = _LIST_MARK.sub("", " ".join(text.split())).strip(" -*+#>,;:")
    return text if any(c.isalnum() for c in text) else ""


def _target(sandbox: Sandbox, source: str, target: str, how: str, cue: str) -> Iterator[Reveal]:
    """The reveals for a link-like ``target`` found in ``source``."""
    resolved = resolve(source, target)
    if resolved.kind not in ("internal", "outside"):
        return  # a URL or an anchor in the same file
    # keyed as the agent's call would locate it: a link written with backslashes
    # (..\security\x.md) names the file the call with that path reaches
    located = sandbox.locate(resolved.path)
    if resolved.kind == "outside" or located.kind == OUTSIDE:
        yield Reveal(located.path, False, how, cue, source)
        return
    path = located.path
    kind = sandbox.kind_of(path)
    if not path or kind == FOLDER or target.split("#")[0].split("?")[0].endswith("/"):
        yield Reveal(path, True, how, cue, source)
        index = posixpath.join(path, "index.md") if path else "index.md"
        if sandbox.kind_of(index) == FILE:
            yield Reveal(index, False, how, cue, source)
    else:
        yield Reveal(path, False, how, cue, source)
    folder = posixpath.dirname(path)
    while folder:
        yield Reveal(folder, True, ON_PATH, "", source)
        folder = posixpath.dirname(folder)


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark")
    md.validateLink = lambda url: True  # keep file: links: they name a place outside
    return md


def _links_and_code(body: str) -> Iterator[tuple[str, str, str]]:
    """``(kind, target, label)`` for each link, image and code span, in reading order.

    A code span's label is the source line it sits on (see :func:`_line_cue`).
    """
    lines: list[str] | None = None
    for token in _markdown().parse(body):
        if token.type != "inline" or not token.children:
            continue
        href: str | None = None
        label: list[str] = []
        for child in token.children:
            if child.type == "link_open":
                href, label = str(child.attrs.get("href", "")), []
            elif child.type == "link_close" and href is not None:
                yield "link", href, "".join(label)
                href = None
            elif child.type == "image":
                yield "link", str(child.attrs.get("src", "")), child.content
            elif child.type == "code_inline":
                if href is not None:
                    label.append(child.content)
                else:
                    if lines is None:
                        lines = body.splitlines()
                    yield "code", child.content, _code_line(lines, token.map, child.content)
            elif child.type == "text" and href is not None:
                label.append(child.content)


def _code_line(lines: list[str], where: list[int] | None, code: str) -> str:
    """The first line of the block at ``where`` holding ``code``; ``''`` if none does."""
    start, end = where if where else (0, len(lines))
    for line in lines[start:end]:
        if code in line:
            return line
    return ""
