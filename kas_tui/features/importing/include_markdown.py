"""The mkdocs-include-markdown plugin's directives, expanded as the site renders them.

``{% include-markdown "../common/entity-owner.md" %}`` (over several lines too, with
options such as ``start="<!--intro-->"``, ``end="<!--end-->"``, ``comments=false``)
stands for the file's text: a preprocessor's, so inside code fences too (k3d shows its
Dockerfile in a fence that way). The path is read from the including file; the part
between ``start`` and ``end`` when they are given; the included file's relative links
are rewritten to lead from the page (the plugin's default, unless
``rewrite-relative-urls=false``). The plugin's plain ``{% include "x" %}`` is left as
written: Jinja writes it alike in the code examples of theme docs
(mkdocs-material's ``{% include "partials/header.html" %}``), which include nothing. Each line of the file takes the indent
the directive stands at. A file's own directives are expanded too (up to
``max_depth``, never in a loop). A directive whose file is not in the source (or a glob)
stays as written, with a problem naming the page's line.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from kas_tui.features.importing.include_syntax import frontmatter_end
from kas_tui.features.importing.includes import IncludeProblem, not_in_source, rebase_links

Read = Callable[[str], "str | None"]
#: A directive: its name, the quoted path, and its options, over one line or several.
DIRECTIVE = re.compile(
    r"\{%-?\s*(?P<name>include-markdown)\s+(?P<q>[\"'])(?P<path>[^\"'\n]+)(?P=q)"
    r"(?P<options>[^%]*?)-?%\}",
    re.DOTALL,
)
_OPTION = re.compile(r"""(?P<key>[\w-]+)\s*=\s*(?:(?P<q>["'])(?P<text>.*?)(?P=q)|(?P<word>\S+))""")


def expand_include_markdown(
    text: str, page: str, read: Read, *, max_depth: int = 5
) -> tuple[str, list[str], list[IncludeProblem]]:
    """``text`` (the page ``page``) with each directive replaced by what it includes;
    the files included; the problems, by the page's line."""
    included: list[str] = []
    problems: list[IncludeProblem] = []
    if "{%" not in text or "include" not in text:
        return text, included, problems

    def expand(body: str, path: str, chain: tuple[str, ...], at: int | None) -> str:
        def swap(match: re.Match[str]) -> str:
            line = at if at is not None else body.count("\n", 0, match.start()) + 1
            written = match.group("path").strip()
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), written))
            raw = None if any(c in written for c in "*?[") else read(target)
            where = f" (in {path})" if len(chain) > 1 else ""
            if raw is None or target.startswith(".."):
                problems.append(
                    not_in_source(line, written, f"{{% {match.group('name')} %}}", where)
                )
                return match.group(0)
            if target in chain or len(chain) > max_depth:
                problems.append(
                    IncludeProblem(
                        line,
                        written,
                        f"{{% {match.group('name')} %}} of {target} leads back to a file "
                        f"including it or nests too deep{where}: the directive was left as it was",
                    )
                )
                return match.group(0)
            if target not in included:
                included.append(target)
            options = _options(match.group("options"))
            shown = raw.lstrip("\ufeff").replace("\r\n", "\n")
            if target.lower().endswith((".md", ".markdown")):
                shown = shown[frontmatter_end(shown) :]
            shown = _between(shown, options.get("start"), options.get("end"))
            shown = expand(shown, target, (*chain, target), line)
            if (
                match.group("name") == "include-markdown"
                and options.get("rewrite-relative-urls", "true").lower() != "false"
            ):
                shown = rebase_links(shown, target, path)
            indent = body[body.rfind("\n", 0, match.start()) + 1 : match.start()]
            lines = shown.strip("\n").split("\n")
            return "\n".join([lines[0], *(indent + x if x.strip() else "" for x in lines[1:])])

        return DIRECTIVE.sub(swap, body)

    return expand(text, page, (page,), None), included, problems


def include_markdown_targets(text: str, page: str) -> list[str]:
    """The files ``text``'s directives name (source-relative), without reading them."""
    if "{%" not in text or "include" not in text:
        return []
    found = []
    for match in DIRECTIVE.finditer(text):
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), match.group("path")))
        if not joined.startswith(".."):
            found.append(joined)
    return found


def _options(text: str) -> dict[str, str]:
    return {
        m.group("key").lower(): m.group("text") if m.group("q") else m.group("word")
        for m in _OPTION.finditer(text)
    }


def _between(text: str, start: str | None, end: str | None) -> str:
    """The part of ``text`` after the ``start`` marker and before the ``end`` marker."""
    if start and start in text:
        text = text.split(start, 1)[1]
    if end and end in text:
        text = text.split(end, 1)[0]
    return text
