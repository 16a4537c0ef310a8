"""Include directives resolved the way the docs site renders them.

A page of a docs site pulls shared text in with a directive its generator expands; a
build that kept the directive would show an agent ``[!INCLUDE ...]`` where a reader sees
a paragraph. Pure: files are read through a ``read(rel_path)`` callable, never the disk.

docfx (``[!INCLUDE[title](path.md)]``, a space before ``[title]`` allowed)
    On a line of its own (after any ``>`` or list marker, which the included lines take
    too) or inline, where the text is joined into the line. The path is relative to the
    including file (``%20`` decoded, ``~/`` or ``/`` from the source root); the included
    file's frontmatter is dropped, its own includes resolve relative to it and its
    relative links are rewritten to lead to the same files from the including page. Not
    inside fenced or indented code, nor in a code span.

MkDocs (pymdownx.snippets, a preprocessor: expanded inside fenced code too)
    A line ``--8<-- "path"`` (single quotes too, any number of dashes around ``8<``),
    or a block: a ``--8<--`` line, path lines, a closing ``--8<--`` line (a blank path
    line stays a blank line). The snippet takes the directive's indentation. Paths are
    relative to the site's base paths (``snippet_bases``, tried in order, never left
    upward), nested snippets too. ``"f.py:3:10"`` keeps lines 3 to 10 (``f.py:3``
    from 3 on, ``f.py::10`` up to 10, ``-n`` counts from the end, ``1:3,7:9`` several
    ranges); ``"f.py:name"`` the lines between ``--8<-- [start:name]`` and
    ``--8<-- [end:name]`` (behind any comment prefix). Marker lines never show. A path
    starting with ``;`` is commented out (the line is dropped); ``;--8<--`` is an
    escaped directive, shown without its first ``;``.

mdx_include (FastAPI, SQLModel, Typer; a preprocessor too)
    ``{!path!}`` anywhere in a line, ``{!path[ln:1-18,20-]!}`` keeping those lines,
    ``| encoding`` ignored, a backslash before ``{!`` escapes it. The path is looked for beside the page, then
    from each MkDocs config's folder and its ``docs`` folder (:func:`mdx_bases`), then
    the snippet bases; never outside the source. A directive alone on its line gives the
    lines its indentation. Included files are not expanded further.

Where pymdownx drops a directive it cannot resolve, the page here keeps it as written
and a problem says why: a missing file, a path leaving the source, an image, a URL, a
loop (``a`` includes ``b`` includes ``a``), nesting deeper than ``max_depth``. Problems
carry the line in the page given (for a nested include, the line of the outermost
directive, the message naming the file and line it sits in).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kas_tui.core.okf.links import relative_link, resolve, rewrite_links
from kas_tui.features.importing.include_syntax import (
    BINARY,
    CONTAINER,
    DOCFX,
    IMAGE,
    MARKDOWN,
    MDX_INCLUDE,
    SNIPPET,
    code_lines,
    code_spans,
    directive_paths,
    docfx_target,
    file_lines,
    frontmatter_end,
    has_directive,
    mdx_candidates,
    parse_mdx_spec,
    parse_spec,
    relative,
    section_lines,
    select_lines,
    under,
    without_markers,
)
from kas_tui.features.importing.include_variants import (
    VARIANTS,
    code_block,
    line_ranges,
    variant_names,
)

#: Folder names docs sites keep their snippet and include files in.
INCLUDE_DIRS = frozenset({"includes", "_includes", "snippets", "_snippets", "includes-shared"})

Read = Callable[[str], "str | None"]


@dataclass(frozen=True)
class IncludeProblem:
    line: int  # 1-based line in the including file
    target: str  # the path as written
    message: str  # what happened and how to fix it


def not_in_source(line: int, written: str, directive: str, where: str = "") -> IncludeProblem:
    """The problem of an include directive (``directive``, as the page writes its kind)
    naming ``written``, which the source does not hold (``where``: " (in x.md)" when
    the directive is in an included file): left as written."""
    return IncludeProblem(
        line,
        written,
        f"{directive} names {written}, which is not a file of the source{where}: the "
        "directive was left as it was; build from the folder holding it, or add it",
    )


@dataclass
class Expanded:
    text: str  # the text with every resolvable directive replaced
    included: list[str] = field(default_factory=list)  # source-relative, each once, in order
    problems: list[IncludeProblem] = field(default_factory=list)


def is_include_target(path: str) -> bool:
    """Whether the source-relative ``path`` sits in a folder docs sites keep snippets
    and include files in (:data:`INCLUDE_DIRS`): text shown inside other pages, not a
    page of its own."""
    return any(part.lower() in INCLUDE_DIRS for part in path.split("/")[:-1])


def expand_includes(
    text: str,
    path: str,
    read: Read,
    *,
    max_depth: int = 5,
    snippet_bases: Sequence[str] = ("", "docs"),
    shared: dict | None = None,
    mdx_bases: Sequence[str] = (),
) -> Expanded:
    """``text`` (the file at source-relative ``path``) with its include directives
    replaced by what they include; ``read(rel)`` gives a source file's text or ``None``.
    ``shared`` (a dict kept across the pages of one build) remembers each docfx include
    as shown in a folder when it showed without a problem: the product-name snippet
    in every page of a flat folder is expanded and rebased once. An mdx_include
    ``{!path!}`` is looked for beside the page, then in ``mdx_bases`` (the site's docs
    folder and config folder), then in the snippet bases."""
    result = Expanded(text)
    if not has_directive(text):
        return result
    bases = [b.strip("/") for b in snippet_bases]
    expander = _Expander(read, result, max_depth, bases, shared, mdx_bases)
    if "{*" in text:
        text = expander.variants(text, path)
    if "{!" in text:
        text = expander.mdx(text, path)
    result.text = expander.expand(text, path, (path,), None)
    return result


def targets(
    text: str,
    path: str,
    *,
    snippet_bases: Sequence[str] = ("", "docs"),
    mdx_bases: Sequence[str] = (),
) -> list[str]:
    """The source-relative paths ``text``'s directives name, without reading them (a
    snippet's path in every base it may be in): for telling include files from pages."""
    found: list[str] = []
    for line in text.split("\n") if "{*" in text else ():
        match = VARIANTS.match(line)
        for name in variant_names(match.group("path")) if match else ():
            found += mdx_candidates(path, name, [*mdx_bases, *snippet_bases])
    for match in MDX_INCLUDE.finditer(text) if "{!" in text else ():
        name = parse_mdx_spec(match.group("spec"))[0]
        found += mdx_candidates(path, name, [*mdx_bases, *snippet_bases])
    for written, snippet in directive_paths(text):
        if snippet:
            name = parse_spec(written)[0]
            found += [p for p in (under(b.strip("/"), name) for b in snippet_bases) if p]
        else:
            rel = relative(path, written)
            if rel:
                found.append(rel)
    return list(dict.fromkeys(found))


def rebase_links(text: str, written_in: str, shown_in: str) -> str:
    """``text``'s relative links, written for the file ``written_in``, rewritten to lead
    to the same files from ``shown_in`` (the page an include is expanded into)."""
    if written_in == shown_in or posixpath.dirname(written_in) == posixpath.dirname(shown_in):
        return text

    def change(target: str) -> str | None:
        if target.startswith("/"):
            return None  # rooted: the same from anywhere
        found = resolve(written_in, target)
        if found.kind != "internal":
            return None
        link = relative_link(shown_in, found.path)
        return link + ("#" + found.fragment if "#" in target else "")

    return rewrite_links(text, change)


class _Expander:
    def __init__(
        self,
        read: Read,
        result: Expanded,
        max_depth: int,
        bases: list[str],
        shared: dict | None = None,
        mdx_bases: Sequence[str] = (),
    ) -> None:
        self._read = read
        self.mdx_bases = [*mdx_bases, *bases]
        self.shared = shared if shared is not None else {}
        self._texts: dict[str, str | None] = {}
        self.result = result
        self.max_depth = max_depth
        self.bases = bases

    def read(self, rel: str) -> str | None:
        if rel not in self._texts:
            text = self._read(rel)
            if text is not None:
                text = text.lstrip("\ufeff").replace("\r\n", "\n")
            self._texts[rel] = text
        return self._texts[rel]

    def problem(self, where: tuple[int, str], target: str, message: str) -> None:
        self.result.problems.append(IncludeProblem(where[0], target, message + where[1]))

    # -- markdown-include-variants ----------------------------------------------------------

    def variants(self, text: str, path: str) -> str:
        """``text`` (the page ``path``) with each ``{* file ln[..] *}`` line replaced by
        the code block the site shows (:mod:`.include_variants`); one that names no
        file of the source, or lines that are no numbers, stays, with a problem."""
        out: list[str] = []
        for number, line in enumerate(text.split("\n"), start=1):
            match = VARIANTS.match(line) if line.startswith("{*") else None
            shown = self.variant_block(match, path, number) if match else None
            out += [line] if shown is None else shown
        return "\n".join(out)

    def variant_block(self, match: re.Match[str], path: str, number: int) -> list[str] | None:
        name = match.group("path")
        try:
            ranges = line_ranges(match.group("config"))
        except ValueError as error:
            self.problem(
                (number, ""),
                name,
                f"{{* *}} {error}: the directive was left as it was; write ln[1:8,12]",
            )
            return None
        candidates = [
            c for n in variant_names(name) for c in mdx_candidates(path, n, self.mdx_bases)
        ]
        found = next((c for c in dict.fromkeys(candidates) if self.read(c) is not None), None)
        if found is None:
            self.result.problems.append(not_in_source(number, name, "{* *}"))
            return None
        self.included(found)
        return code_block(file_lines(self.read(found) or ""), ranges)

    # -- mdx_include ----------------------------------------------------------------------

    def mdx(self, text: str, path: str) -> str:
        """``text`` (the page ``path``) with each ``{!path!}`` replaced by the lines it
        names (``[ln:1-18]``), each taking the directive's indentation when it stands
        alone on its line; one that cannot be read stays, with a problem."""
        out: list[str] = []
        for number, line in enumerate(text.split("\n"), start=1):
            if "{!" not in line:
                out.append(line)
                continue
            alone = MDX_INCLUDE.fullmatch(line.strip())
            indent = line[: len(line) - len(line.lstrip())] if alone else ""

            def body(match: re.Match[str], number: int = number, indent: str = indent) -> str:
                name, ranges = parse_mdx_spec(match.group("spec"))
                shown = self.mdx_text(name, ranges, path, number)
                if shown is None:
                    return match.group(0)
                return "\n".join(indent + x if x else x for x in shown).removeprefix(indent)

            out.append(MDX_INCLUDE.sub(body, line))
        return "\n".join(out).replace("\\{!", "{!")

    def mdx_text(
        self, name: str, ranges: list[tuple[int | None, int | None]], path: str, number: int
    ) -> list[str] | None:
        """The lines an mdx_include names, or ``None`` (with a problem) when none can be
        read."""
        candidates = mdx_candidates(path, name, self.mdx_bases)
        found = next((c for c in candidates if self.read(c) is not None), None)
        if found is None:
            looked = ", ".join(candidates) or "nowhere inside the source"
            self.problem(
                (number, ""),
                name,
                f"{name} is not in the source (looked for {looked}): the directive was left "
                "as it was; build from the folder holding the file it names, or add it",
            )
            return None
        self.included(found)
        lines = list(enumerate(file_lines(self.read(found) or ""), start=1))
        return [line for _n, line in (select_lines(lines, ranges) if ranges else lines)]

    # -- one file ------------------------------------------------------------------------

    def expand(
        self,
        text: str,
        path: str,
        chain: tuple[str, ...],
        at: tuple[int, str] | None,
        numbers: Sequence[int] | None = None,
    ) -> str:
        """``text`` of ``path`` expanded. For an included file, ``at`` is where the
        outermost directive stands (its line in the page) and ``numbers`` the line in
        ``path`` each line of ``text`` is (the text may be a part of the file)."""
        lines = text.split("\n")
        numbers = numbers or range(1, len(lines) + 1)
        docfx = path.lower().endswith(MARKDOWN) or at is None
        code = code_lines(text) if docfx and "[!include" in text.lower() else None
        if "8<" not in text:  # no snippet line: only docfx lines to look at
            return self._docfx_lines(lines, path, chain, at, numbers, code)
        pairs = self._block_markers(lines, path, at, numbers)
        out: list[str] = []
        inside = False
        for index, line in enumerate(lines):
            where = (
                (index + 1, "") if at is None else (at[0], f" (in {path}, line {numbers[index]})")
            )
            match = SNIPPET.match(line)
            if match and match.group("escape"):
                out.append(line.replace(";", "", 1))
            elif match and match.group("block") and index in pairs:
                inside = not inside
            elif inside and match:  # pymdownx ignores a quoted snippet inside a block
                self.problem(
                    where,
                    match.group("quoted")[1:-1],
                    "a quoted --8<-- line inside a --8<-- block is ignored: the line was "
                    "dropped; write the path alone on its line inside the block",
                )
            elif inside or (match and match.group("inline")):
                spec = (match.group("quoted")[1:-1] if match else line).strip()
                indent = match.group("space") if match else line[: len(line) - len(line.lstrip())]
                if inside and not spec:
                    out.append("")  # a blank path line is a blank line
                elif not spec.startswith(";"):  # ``;path`` is commented out
                    out += self.snippet(spec, line, indent, chain, where)
            elif code is not None and index not in code and "[!" in line:
                out += self.docfx_line(line, path, chain, where)
            else:
                out.append(line)
        return "\n".join(out)

    def _docfx_lines(
        self,
        lines: list[str],
        path: str,
        chain: tuple[str, ...],
        at: tuple[int, str] | None,
        numbers: Sequence[int],
        code: frozenset[int] | None,
    ) -> str:
        """:meth:`expand` of a text without a ``--8<--`` line (every docfx page): only the
        lines that may hold a docfx directive are looked at."""
        if code is None:
            return "\n".join(lines)
        out: list[str] = []
        for index, line in enumerate(lines):
            if "[!" in line and index not in code:
                where = (
                    (index + 1, "")
                    if at is None
                    else (at[0], f" (in {path}, line {numbers[index]})")
                )
                out += self.docfx_line(line, path, chain, where)
            else:
                out.append(line)
        return "\n".join(out)

    def _block_markers(
        self, lines: list[str], path: str, at: tuple[int, str] | None, numbers: Sequence[int]
    ) -> set[int]:
        """The lines opening and closing snippet blocks; one left open is a problem."""
        markers = []
        for index, line in enumerate(lines):
            match = SNIPPET.match(line)
            if match and match.group("block") and not match.group("escape"):
                markers.append(index)
        if len(markers) % 2:
            last = markers.pop()
            note = f" (in {path}, line {numbers[last]})" if at else ""
            self.problem(
                (at[0] if at else last + 1, note),
                lines[last].strip(),
                "this --8<-- opens a snippet block no --8<-- line closes: the lines after "
                "it were left as they were; close the block with a line holding only --8<--",
            )
        return set(markers)

    # -- MkDocs snippets -----------------------------------------------------------------

    def snippet(
        self, spec: str, line: str, indent: str, chain: tuple[str, ...], where: tuple[int, str]
    ) -> list[str]:
        name, ranges, section = parse_spec(spec)
        kept = [line]
        if name.lower().startswith(("http://", "https://")):
            self.problem(
                where,
                spec,
                f"{name} is a URL: remote snippets are not downloaded, the directive was left "
                "as it was; copy the text into a file of the source and include that",
            )
            return kept
        if IMAGE.search(name) or BINARY.search(name):
            what = "an image" if IMAGE.search(name) else "a binary file"
            self.problem(
                where,
                spec,
                f"{name} is {what}: {what} cannot be included as text, the directive was left "
                "as it was; link to it with ![...](...) instead",
            )
            return kept
        candidates = [under(base, name) for base in self.bases]
        found = next((c for c in candidates if c and self.read(c) is not None), None)
        if found is None:
            joined = [posixpath.normpath(posixpath.join(b, name)) for b in self.bases]
            if not any(candidates) and all(j == ".." or j.startswith(("../", "/")) for j in joined):
                self.problem(
                    where,
                    spec,
                    f"{name} leads outside the source: it was not read, the directive was left "
                    "as it was; include a file inside the source",
                )
            elif not any(candidates):
                bases = ", ".join(f"{b}/" if b else "the source root" for b in self.bases)
                self.problem(
                    where,
                    spec,
                    f"{name} climbs out of every snippet base path ({bases}), which pymdownx "
                    "does not allow: it was not read, the directive was left as it was; name "
                    "the file from a base path",
                )
            else:
                looked = ", ".join(dict.fromkeys(c for c in candidates if c))
                self.problem(
                    where,
                    spec,
                    f"{name} is not in the source (looked for {looked}): the directive was "
                    "left as it was; fix the path or add the file",
                )
            return kept
        if not self.may_enter(found, spec, chain, where):
            return kept
        lines = list(enumerate(file_lines(self.read(found) or ""), start=1))
        if section is not None:
            chosen = section_lines(lines, section)
            if chosen is None:
                self.problem(
                    where,
                    spec,
                    f"{found} has no section {section} (no --8<-- [start:{section}] marker): "
                    "the directive was left as it was; fix the section name or add the markers",
                )
                return kept
            lines = chosen
        else:
            lines = without_markers(select_lines(lines, ranges) if ranges else lines)
        if not lines:
            self.problem(
                where,
                spec,
                f"{spec} selects no line of {found}: the directive was left as it was; fix the "
                "line numbers or the section markers",
            )
            return kept
        self.included(found)
        text = "\n".join(part for _number, part in lines)
        body = self.expand(text, found, (*chain, found), where, [n for n, _part in lines])
        indent = indent.expandtabs(4)
        return [indent + part if part else part for part in body.split("\n")]

    # -- docfx ---------------------------------------------------------------------------

    def docfx_line(
        self, line: str, path: str, chain: tuple[str, ...], where: tuple[int, str]
    ) -> list[str]:
        spans = code_spans(line)
        found = [m for m in DOCFX.finditer(line) if not any(a <= m.start() < b for a, b in spans)]
        if not found:
            return [line]
        first = found[0]
        container = CONTAINER.fullmatch(line[: first.start()])
        if len(found) == 1 and container and not line[first.end() :].strip():
            body = self.docfx(first, path, chain, where)
            if body is None:
                return [line]
            prefix = line[: first.start()]
            more = container.group("quote") + " " * len(container.group("item") or "")
            parts = body.strip("\n").split("\n")
            rest = [more + part if part.strip() else more.rstrip() for part in parts[1:]]
            return [prefix + parts[0], *rest]
        pieces, at = [], 0
        for match in found:
            body = self.docfx(match, path, chain, where)
            inline = " ".join(part.strip() for part in (body or "").split("\n") if part.strip())
            pieces += [line[at : match.start()], match.group(0) if body is None else inline]
            at = match.end()
        return ["".join(pieces) + line[at:]]

    def docfx(
        self, match: re.Match[str], path: str, chain: tuple[str, ...], where: tuple[int, str]
    ) -> str | None:
        written = docfx_target(match.group("target"))
        rel = relative(path, written)
        if rel is None:
            self.problem(
                where,
                written,
                f"{written} leads outside the source: it was not read, the directive was left "
                "as it was; include a file inside the source",
            )
            return None
        if not self.may_enter(rel, written, chain, where):
            return None
        text = self.read(rel)
        if text is None:
            self.problem(
                where,
                written,
                f"{rel} does not exist: the directive was left as it was; fix the path or add "
                "the file",
            )
            return None
        key = (rel, posixpath.dirname(path), len(chain))
        known = self.shared.get(key)
        if known is not None and not set(chain) & known[1]:
            for inner in (rel, *known[2]):
                self.included(inner)
            return known[0]
        self.included(rel)
        problems, before = len(self.result.problems), len(self.result.included)
        skipped = frontmatter_end(text)
        first = text[:skipped].count("\n") + 1
        text = text[skipped:]
        numbers = range(first, first + text.count("\n") + 1)
        body = rebase_links(self.expand(text, rel, (*chain, rel), where, numbers), rel, path)
        if len(self.result.problems) == problems:  # shown the same wherever it is included
            nested = tuple(self.result.included[before:])
            self.shared[key] = (body, {rel, *nested}, nested)
        return body

    # -- both ----------------------------------------------------------------------------

    def may_enter(
        self, rel: str, written: str, chain: tuple[str, ...], where: tuple[int, str]
    ) -> bool:
        if rel in chain:
            loop = " -> ".join((*chain, rel))
            self.problem(
                where,
                written,
                f"include loop {loop}: stopped there, the directive was left as it was; "
                "remove the include that leads back",
            )
            return False
        if len(chain) > self.max_depth:
            self.problem(
                where,
                written,
                f"includes nest deeper than {self.max_depth} ({' -> '.join((*chain, rel))}): "
                f"{rel} was not read, the directive was left as it was; include it from a "
                "shallower file",
            )
            return False
        return True

    def included(self, rel: str) -> None:
        if rel not in self.result.included:
            self.result.included.append(rel)
