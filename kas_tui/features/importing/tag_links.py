"""Links written in a page's HTML or JSX tags: ``<Card title="Quickstart"
href="/quickstart">``, ``<a href="../setup">``, ``<Card href={"/guides/x"}>``.

An MDX site's landing pages link mostly through components, and Markdown's link
syntax does not see them: built as written, such a link kept the site's address
(``/quickstart``) where the package holds ``quickstart.md``, and a page that moved
left it dead. Here each ``href`` (and ``src``) of a tag outside code is read as a
Markdown link destination is and rewritten the same way; everything else is the bytes
it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kas_tui.text.prose import outside_fences

#: An attribute naming a link in a tag: ``href="x"``, ``href='x'``, ``href={"x"}``.
_ATTRIBUTE = re.compile(
    r"""(?P<lead><[A-Za-z][\w.:-]*\b[^<>`]*?\b(?:href|src)\s*=\s*\{?\s*)"""
    r"""(?P<quote>["'])(?P<target>[^"'<>\s{}]+)(?P=quote)"""
)


def rewrite_tag_links(text: str, change: Callable[[str], str | None]) -> str:
    """``text`` with each tag's ``href``/``src`` that ``change`` maps to a new one
    rewritten (``None`` keeps it); none in fenced code or in a code span. A tag may
    span lines (``<Card\n  title="React"\n  href="/docs/react"\n>``)."""
    if "href" not in text and "src" not in text:
        return text
    return outside_fences(text, lambda prose: _ATTRIBUTE.sub(lambda m: _swap(m, change), prose))


def _swap(match: re.Match[str], change: Callable[[str], str | None]) -> str:
    text = match.string
    line_start = text.rfind("\n", 0, match.start()) + 1
    if text.count("`", line_start, match.start()) % 2:  # inside a code span
        return match.group(0)
    new = change(match.group("target"))
    if new is None or new == match.group("target"):
        return match.group(0)
    quote = match.group("quote")
    return f"{match.group('lead')}{quote}{new}{quote}"
