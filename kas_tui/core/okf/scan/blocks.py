"""markdown-it's block parser: its state, tokenizer and container rules (block quotes,
lists); the leaf rules are in :mod:`.leaf_blocks`."""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate
from operator import add, sub

from markdown_it.common.utils import MD_TRIM_CHARS as _TRIM  # what markdown-it's mdTrim strips

from kas_tui.core.okf.link_parser import Link
from kas_tui.core.okf.scan.common import (
    _CONTAINERS,
    _FN_DEF_RE,
    _HR_RE,
    _MAX_BLOCK_LEVEL,
    _RESET_RE,
    _STARTS,
    _UNDERLINE_RE,
    BodyScan,
    Destination,
    _Fallback,
    _Ref,
)
from kas_tui.core.okf.scan.inline import (
    _Inline,
    _inline_destinations,
)
from kas_tui.core.okf.scan.leaf_blocks import (
    _LeafBlocks,
)
from kas_tui.core.okf.scan.list_blocks import _ListBlocks


class _Blocks(_LeafBlocks, _ListBlocks):
    """markdown-it's block parser (commonmark rules), emitting inline blocks, not tokens.

    The rule methods follow ``markdown_it/rules_block/*.py`` line for line, including
    their quirks; ``_FN`` checks make sure the footnote plugin would see the same blocks.
    With ``spans`` (a list), :meth:`finish` puts link destinations there, not links.
    """

    spans: list[Destination] | None = None

    def __init__(self, src: str, fn: bool) -> None:
        self.src = src
        self.fn = fn
        length = len(src)
        lines = src.split("\n")
        if not lines[-1]:
            lines.pop()  # the text ended with "\n": no extra line
        lens = list(map(len, lines))
        tails = [len(text.lstrip(" \t")) for text in lines]
        if tails and not tails[-1] and src[-1] != "\n":
            lines.pop()  # a final blank line without "\n" gets no marker
            lens.pop()
            tails.pop()
        tShift = list(map(sub, lens, tails))
        bMarks = list(accumulate(map((1).__add__, lens), initial=0))
        eMarks = list(map(add, bMarks, lens))
        if "\t" in src:
            sCount = []
            for text, indent in zip(lines, tShift, strict=True):
                offset = indent
                if indent and "\t" in text[:indent]:
                    offset = 0
                    for ch in text[:indent]:
                        offset += 4 - offset % 4 if ch == "\t" else 1
                sCount.append(offset)
            self.tabs = True
        else:
            sCount = tShift.copy()
            self.tabs = False
        self.lineMax = len(lens)
        bMarks[-1] = length  # the fake last line
        eMarks.append(length)
        tShift.append(0)
        sCount.append(0)
        self.bMarks = bMarks
        self.eMarks = eMarks
        self.tShift = tShift
        self.sCount = sCount
        self.bsCount = [0] * len(bMarks)
        self.blkIndent = 0
        self.line = 0
        self.listIndent = -1
        self.level = 0
        self.depth = 0  # open containers (block quotes, list items)
        self.quotes = 0  # open block quotes (they move bMarks)
        # (content, line, heading level or 0, footnote definition prefixes, boundaries)
        self.inlines: list[tuple[str, int, int, tuple[int, ...], tuple[int, ...]]] = []
        self.refs: dict[str, _Ref] = {}
        self.fdefs: set[str] = set()

    def isEmpty(self, line: int) -> bool:
        return self.bMarks[line] + self.tShift[line] >= self.eMarks[line]

    def skipSpaces(self, pos: int) -> int:
        src = self.src
        n = len(src)
        while pos < n and src[pos] in " \t":
            pos += 1
        return pos

    def skipChars(self, pos: int, ch: str) -> int:
        src = self.src
        n = len(src)
        while pos < n and src[pos] == ch:
            pos += 1
        return pos

    def getLines(self, begin: int, end: int, indent: int, keepLastLF: bool) -> str:
        if begin >= end:
            return ""
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        if indent == 0 and not self.quotes:  # lines are contiguous in src
            last = eMarks[end - 1] + 1 if keepLastLF else eMarks[end - 1]
            return src[bMarks[begin] : last]
        tShift = self.tShift
        if not self.tabs:  # skip min(indent, tShift) characters (spaces or markers)
            parts = []
            for line in range(begin, end):
                t = tShift[line]
                b = bMarks[line] + (indent if indent < t else t)
                last = eMarks[line] + 1 if line + 1 < end or keepLastLF else eMarks[line]
                parts.append(src[b:last])
            return "".join(parts)
        bsCount = self.bsCount
        parts = []
        for line in range(begin, end):
            lineIndent = 0
            lineStart = first = bMarks[line]
            last = eMarks[line] + 1 if line + 1 < end or keepLastLF else eMarks[line]
            while first < last and lineIndent < indent:
                ch = src[first]
                if ch == " ":
                    lineIndent += 1
                elif ch == "\t":
                    lineIndent += 4 - (lineIndent + bsCount[line]) % 4
                elif first - lineStart < tShift[line]:
                    lineIndent += 1
                else:
                    break
                first += 1
            if lineIndent > indent:
                parts.append(" " * (lineIndent - indent) + src[first:last])
            else:
                parts.append(src[first:last])
        return "".join(parts)

    def _is_fn_def(self, line: int) -> re.Match[str] | None:
        pos = self.bMarks[line] + self.tShift[line]
        return _FN_DEF_RE.match(self.src, pos, self.eMarks[line])

    def tokenize(self, startLine: int, endLine: int) -> None:
        if self.level >= _MAX_BLOCK_LEVEL:
            raise _Fallback
        line = startLine
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        # The rules called below restore these before they return.
        lineMax = self.lineMax
        blkIndent = self.blkIndent
        top = not self.depth
        fn = self.fn
        while line < endLine:
            while line < lineMax and bMarks[line] + tShift[line] >= eMarks[line]:
                line += 1
            self.line = line
            if line >= endLine or sCount[line] < blkIndent:
                break
            first = bMarks[line] + tShift[line]
            ch = src[first]
            if top and ch in _CONTAINERS:
                boring = self._boring_until(line)
                if boring:
                    line = boring
                    continue
            if sCount[line] - blkIndent >= 4:
                self._code(line, endLine)
            elif ch in _STARTS:
                if ch != "#" or not self._heading(line, False):
                    self._block(line, endLine)
            else:  # only the paragraph rule can start here
                nxt = line + 1
                if (
                    nxt < endLine
                    and bMarks[nxt] + tShift[nxt] >= eMarks[nxt]
                    and not (fn and src.find("[^", first, eMarks[line]) >= 0)
                ):
                    # One line then a blank line: what _paragraph would do, in short.
                    last = eMarks[line]
                    if src.find("[", first, last) >= 0 or src.find("<", first, last) >= 0:
                        content = self.getLines(line, nxt, blkIndent, False).strip(_TRIM)
                        self.inlines.append((content, line, 0, (), ()))
                    line = nxt + 1
                    self.line = line
                    continue
                self._paragraph(line, endLine)
            line = self.line
            if line < endLine and bMarks[line] + tShift[line] >= eMarks[line]:
                line += 1
                self.line = line

    def _boring_until(self, line: int) -> int:
        """The next column-0 line after a blank line, if nothing before it can matter.

        Called where the top-level tokenizer starts a block (a list, a block quote...) at
        ``line``. Without ``[``, ``<`` (links, HTML, footnotes, definitions), ``#`` or a
        setext underline (headings), a backtick or ``~`` (fences, which may run on), every
        block from ``line`` to that reset line ends before it and yields nothing; a list
        may go on there, but with the same items as a new list. Returns 0 otherwise.
        """
        src = self.src
        begin = self.bMarks[line]
        m = _RESET_RE.search(src, begin)
        end = m.end() if m is not None else len(src)
        find = src.find
        if (
            find("[", begin, end) >= 0
            or find("<", begin, end) >= 0
            or find("#", begin, end) >= 0
            or find("`", begin, end) >= 0
            or find("~", begin, end) >= 0
            or _UNDERLINE_RE.search(src, begin, end) is not None
        ):
            return 0
        return bisect_left(self.bMarks, end) if m is not None else self.lineMax

    def _block(self, line: int, endLine: int) -> None:
        if self.sCount[line] - self.blkIndent >= 4:
            self._code(line, endLine)
            return
        ch = self.src[self.bMarks[line] + self.tShift[line]]
        if ch in "`~":
            if self._fence(line, endLine, False):
                return
        elif ch == ">":
            self._blockquote(line, endLine)
            return
        if ch in "*-_" and self._hr(line, False):
            return
        if (ch in "*-+" or "0" <= ch <= "9") and self._list(line, endLine, False, ""):
            return
        if ch == "[":
            if self.fn and self._is_fn_def(line) and (self.depth or self.blkIndent):
                raise _Fallback  # a footnote definition inside a container
            if self._reference(line):
                return
        elif ch == "<":
            if self._html_block(line, endLine, False):
                return
        elif ch == "#" and self._heading(line, False):
            return
        self._paragraph(line, endLine)

    def _terminates(self, line: int, endLine: int, parent: str) -> bool:
        """Whether a terminator rule of ``parent`` (paragraph, reference, ...) matches."""
        if self.sCount[line] - self.blkIndent >= 4:
            return False
        pos = self.bMarks[line] + self.tShift[line]
        maximum = self.eMarks[line]
        if pos >= maximum:
            return False
        ch = self.src[pos]
        if ch in "`~":
            return self._fence(line, endLine, True)
        if ch == ">":
            return True
        if ch in "*-_" and _HR_RE.match(self.src, pos, maximum):
            return True
        if parent == "list":
            return False
        if ch in "*-+0123456789":
            return self._list(line, endLine, True, parent)
        if ch == "<":
            return self._html_block(line, endLine, True)
        if ch == "#":
            return self._heading(line, True)
        return False

    def _quote_line(self, line: int, pos: int, olds: tuple[list, list, list, list]) -> bool:
        """Strip a ``>`` marker and its spacing from ``line`` (``pos`` is just past the ``>``).

        Saves the line's old marks in ``olds`` (bMarks, bsCount, sCount, tShift) and says
        whether the rest of the line is empty. markdown-it's blockquote rule does this
        for the first line and for each continued line alike.
        """
        src, bMarks, bsCount, sCount, tShift = (
            self.src,
            self.bMarks,
            self.bsCount,
            self.sCount,
            self.tShift,
        )
        maximum = self.eMarks[line]
        initial = offset = sCount[line] + 1
        second = src[pos] if pos < len(src) else ""
        adjustTab = False
        if second == " ":
            pos += 1
            initial += 1
            offset += 1
            spaceAfterMarker = True
        elif second == "\t":
            spaceAfterMarker = True
            if (bsCount[line] + offset) % 4 == 3:
                pos += 1
                initial += 1
                offset += 1
            else:
                adjustTab = True
        else:
            spaceAfterMarker = False
        olds[0].append(bMarks[line])
        bMarks[line] = pos
        while pos < maximum:
            ch = src[pos]
            if ch == " ":
                offset += 1
            elif ch == "\t":
                offset += 4 - (offset + bsCount[line] + (1 if adjustTab else 0)) % 4
            else:
                break
            pos += 1
        olds[1].append(bsCount[line])
        bsCount[line] = sCount[line] + 1 + (1 if spaceAfterMarker else 0)
        olds[2].append(sCount[line])
        sCount[line] = offset - initial
        olds[3].append(tShift[line])
        tShift[line] = pos - bMarks[line]
        return pos >= maximum

    def _blockquote(self, startLine: int, endLine: int) -> None:
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        bsCount = self.bsCount
        oldLineMax = self.lineMax
        oldBMarks: list[int] = []
        oldBSCount: list[int] = []
        oldSCount: list[int] = []
        oldTShift: list[int] = []
        olds = (oldBMarks, oldBSCount, oldSCount, oldTShift)
        pos = bMarks[startLine] + tShift[startLine] + 1  # past ">"
        lastLineEmpty = self._quote_line(startLine, pos, olds)

        nextLine = startLine + 1
        while nextLine < endLine:
            isOutdented = sCount[nextLine] < self.blkIndent
            pos = bMarks[nextLine] + tShift[nextLine]
            maximum = eMarks[nextLine]
            if pos >= maximum:
                break
            evaluatesTrue = src[pos] == ">" and not isOutdented
            pos += 1
            if evaluatesTrue:
                lastLineEmpty = self._quote_line(nextLine, pos, olds)
                nextLine += 1
                continue
            if lastLineEmpty:
                break
            if self._terminates(nextLine, endLine, "blockquote"):
                self.lineMax = nextLine
                if self.blkIndent != 0:
                    oldBMarks.append(bMarks[nextLine])
                    oldBSCount.append(bsCount[nextLine])
                    oldTShift.append(tShift[nextLine])
                    oldSCount.append(sCount[nextLine])
                    sCount[nextLine] -= self.blkIndent
                break
            oldBMarks.append(bMarks[nextLine])
            oldBSCount.append(bsCount[nextLine])
            oldTShift.append(tShift[nextLine])
            oldSCount.append(sCount[nextLine])
            sCount[nextLine] = -1  # lazy continuation
            nextLine += 1

        oldIndent = self.blkIndent
        self.blkIndent = 0
        self.level += 1
        self.depth += 1
        self.quotes += 1
        self.tokenize(startLine, nextLine)
        self.quotes -= 1
        self.depth -= 1
        self.level -= 1
        self.lineMax = oldLineMax
        for i, item in enumerate(oldTShift):
            bMarks[i + startLine] = oldBMarks[i]
            tShift[i + startLine] = item
            sCount[i + startLine] = oldSCount[i]
            bsCount[i + startLine] = oldBSCount[i]
        self.blkIndent = oldIndent

    def finish(self, first_line: int) -> BodyScan:
        links: list[Link] = []
        footnotes: set[str] = set()
        headings: list[tuple[int, str, int]] = []
        refs = self.refs
        fn = self.fn
        spans = self.spans
        if spans is not None:
            for content, line, _level, _prefixes, _boundaries in self.inlines:
                if "](" in content:
                    _inline_destinations(content, line, refs, spans)
            return BodyScan()
        for content, line, level, prefixes, boundaries in self.inlines:
            if level:
                headings.append((level, content, first_line + line))
            if "<" in content or (
                "[" in content and (refs or "](" in content or (fn and "[^" in content))
            ):
                _Inline(content, refs, fn, prefixes, boundaries).scan(
                    first_line + line, links, footnotes
                )
        return BodyScan(tuple(links), frozenset(footnotes), frozenset(self.fdefs), tuple(headings))
