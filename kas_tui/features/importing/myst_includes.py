"""MyST's include directives in a Sphinx project's Markdown pages, shown as Sphinx shows
them: ```` ```{include} ../CHANGES.md ```` puts the file's text where it is written (a
Markdown file's front matter left out, its relative links rewritten to lead from the
page), ```` ```{literalinclude} ../LICENSE.txt ```` the file's text as a code block
(``:language:``). Their options pick lines as reStructuredText's do
(:func:`.rst_includes.lines_picked`: ``:start-after:``, ``:end-before:``,
``:start-line:``, ``:end-line:``, ``:lines:``...). A path is read from the page's folder,
``/path`` from the source's root. A directive whose file the source does not hold, or
whose markers the file lacks, stays as written and is said by the page's line."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from kas_tui.features.importing.include_syntax import frontmatter_end
from kas_tui.features.importing.includes import IncludeProblem, not_in_source, rebase_links
from kas_tui.features.importing.rst_includes import lines_picked

Read = Callable[[str], "str | None"]
#: ```{include} path`` (or ``:::{include}``), its ``:option: value`` lines, its closing fence.
DIRECTIVE = re.compile(
    r"^(?P<fence>`{3,}|:{3,})[ \t]*\{(?P<name>include|literalinclude)\}[ \t]+(?P<path>\S[^\n]*?)"
    r"[ \t]*\n(?P<options>(?:[ \t]*:[\w-]+:[^\n]*\n)*)[ \t]*(?P=fence)[ \t]*$",
    re.M,
)
_OPTION = re.compile(r"^[ \t]*:(?P<key>[\w-]+):[ \t]*(?P<value>[^\n]*?)[ \t]*$", re.M)


def has_myst_include(text: str) -> bool:
    return "{include}" in text or "{literalinclude}" in text


def _target(written: str, page: str) -> str:
    written = written.strip()
    if written.startswith("/"):
        return posixpath.normpath(written.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), written))


def myst_include_targets(text: str, page: str) -> list[str]:
    """The files ``text``'s directives name (source-relative), without reading them."""
    if not has_myst_include(text):
        return []
    found = (_target(m.group("path"), page) for m in DIRECTIVE.finditer(text))
    return [t for t in dict.fromkeys(found) if not t.startswith("..")]


def expand_myst_includes(text: str, page: str, read: Read) -> tuple[str, list[IncludeProblem]]:
    """``text`` (the page ``page``) with each directive replaced by what it shows; the
    problems, by the page's line."""
    problems: list[IncludeProblem] = []
    if not has_myst_include(text):
        return text, problems

    def swap(match: re.Match[str]) -> str:
        line = text.count("\n", 0, match.start()) + 1
        name, written = match.group("name"), match.group("path").strip()
        target = _target(written, page)
        raw = None if target.startswith("..") or target == page else read(target)
        if raw is None:
            problems.append(not_in_source(line, written, f"{{{name}}}", ""))
            return match.group(0)
        options = {
            m.group("key").lower(): m.group("value")
            for m in _OPTION.finditer(match.group("options"))
        }
        shown = raw.lstrip("\ufeff").replace("\r\n", "\n")
        if name == "include" and target.lower().endswith((".md", ".markdown")):
            shown = shown[frontmatter_end(shown) :]
        picked = lines_picked(shown, options)
        if picked is None:
            problems.append(
                IncludeProblem(
                    line,
                    written,
                    f"{{{name}}} {written}: a marker its options name is not in the file; "
                    "left as written",
                )
            )
            return match.group(0)
        if name == "literalinclude" or "literal" in options:
            language = options.get("language", "")
            fence = "````" if "```" in picked else "```"
            return f"{fence}{language}\n{picked.strip(chr(10))}\n{fence}"
        return rebase_links(picked.strip("\n"), target, page)

    return DIRECTIVE.sub(swap, text), problems
