"""markdown-it's leaf block rules (code, fences, thematic breaks, reference definitions,
HTML blocks, headings, paragraphs) and the footnote plugin's checks, for the block
scanner."""

from __future__ import annotations

from bisect import bisect_left

from markdown_it.common.utils import MD_TRIM_CHARS as _TRIM  # what markdown-it's mdTrim strips
from markdown_it.helpers import parseLinkTitle
from markdown_it.rules_block.html_block import HTML_SEQUENCES

from kas_tui.core.okf.scan.common import (
    _ATX_RE,
    _FN_UNSAFE,
    _HR_RE,
    _LIST_MARKER_RE,
    _REF_LABEL_RE,
    Destination,
    _closing_fence_re,
    _destination,
    _Fallback,
    _normalize_label,
    _normalize_link,
    _plain_paragraph_at,
    _Ref,
)


class _LeafBlocks:
    """The leaf block rules of :class:`kas_tui.core.okf.scan.blocks._Blocks` (a mixin: they use
    its state, helpers and terminator check)."""

    def _code(self, startLine: int, endLine: int) -> None:
        last = nextLine = startLine + 1
        sCount = self.sCount
        while nextLine < endLine:
            if self.isEmpty(nextLine):
                nextLine += 1
                continue
            if sCount[nextLine] - self.blkIndent >= 4:
                nextLine += 1
                last = nextLine
                continue
            break
        self.line = last

    def _fence(self, startLine: int, endLine: int, silent: bool) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        if pos + 3 > maximum:
            return False
        marker = src[pos]
        if marker not in "~`":
            return False
        mem = pos
        pos = self.skipChars(pos, marker)
        length = pos - mem
        if length < 3:
            return False
        if marker == "`" and "`" in src[pos:maximum]:
            return False
        if silent:
            return True
        nextLine = startLine
        haveEndMarker = False
        n = len(src)
        if not self.blkIndent and not self.quotes and not self.tabs:
            # The closing fence, found by a search rather than line by line.
            close = _closing_fence_re(marker, length).search(src, self.eMarks[startLine])
            end = bisect_left(self.bMarks, close.start() + 1) if close else self.lineMax
            if end >= endLine:
                self.line = endLine
                return True
            self.line = end + 1
            return True
        while True:
            nextLine += 1
            if nextLine >= endLine:
                break
            pos = mem = self.bMarks[nextLine] + self.tShift[nextLine]
            maximum = self.eMarks[nextLine]
            if pos < maximum and self.sCount[nextLine] < self.blkIndent:
                break
            if pos >= n:
                break
            if src[pos] != marker:
                continue
            if self.sCount[nextLine] - self.blkIndent >= 4:
                continue
            pos = self.skipChars(pos, marker)
            if pos - mem < length:
                continue
            pos = self.skipSpaces(pos)
            if pos < maximum:
                continue
            haveEndMarker = True
            break
        self.line = nextLine + (1 if haveEndMarker else 0)
        return True

    def _hr(self, startLine: int, silent: bool) -> bool:
        pos = self.bMarks[startLine] + self.tShift[startLine]
        if not _HR_RE.match(self.src, pos, self.eMarks[startLine]):
            return False
        if not silent:
            self.line = startLine + 1
        return True

    def _getNextLine(self, nextLine: int) -> str | None:
        if nextLine >= self.lineMax or self.isEmpty(nextLine):
            return None
        if self.fn and self._is_fn_def(nextLine):
            raise _Fallback  # the footnote plugin would end the definition here
        isContinuation = self.sCount[nextLine] - self.blkIndent >= 4 or self.sCount[nextLine] < 0
        if not isContinuation and self._terminates(nextLine, self.lineMax, "reference"):
            return None
        pos = self.bMarks[nextLine] + self.tShift[nextLine]
        return self.src[pos : self.eMarks[nextLine] + 1]

    def _reference(self, startLine: int) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        nextLine = startLine + 1
        string = src[pos : maximum + 1]
        maximum = len(string)
        labelEnd = -1
        pos = 1
        m = _REF_LABEL_RE.search(string, 1)
        if m is not None:
            if string[m.start()] == "[":
                return False
            if string[m.start()] == "]":
                pos = maximum  # skip the loop below: it would stop at this "]"
                labelEnd = m.start()
            else:
                pos = m.start()  # a line break or an escape: the full loop from there
        while pos < maximum:
            ch = string[pos]
            if ch == "[":
                return False
            if ch == "]":
                labelEnd = pos
                break
            if ch == "\n":
                lineContent = self._getNextLine(nextLine)
                if lineContent is not None:
                    string += lineContent
                    maximum = len(string)
                    nextLine += 1
            elif ch == "\\":
                pos += 1
                if pos < maximum and string[pos] == "\n":
                    lineContent = self._getNextLine(nextLine)
                    if lineContent is not None:
                        string += lineContent
                        maximum = len(string)
                        nextLine += 1
            pos += 1
        if labelEnd < 0 or labelEnd + 1 >= len(string) or string[labelEnd + 1] != ":":
            return False
        pos = labelEnd + 2
        while pos < maximum:
            ch = string[pos]
            if ch == "\n":
                lineContent = self._getNextLine(nextLine)
                if lineContent is not None:
                    string += lineContent
                    maximum = len(string)
                    nextLine += 1
            elif ch not in " \t":
                break
            pos += 1
        destStartPos = pos
        ok, dest, pos = _destination(string, pos, maximum)
        if not ok:
            return False
        href = _normalize_link(dest)
        destEndPos = pos
        destEndLineNo = nextLine
        start = pos
        while pos < maximum:
            ch = string[pos]
            if ch == "\n":
                lineContent = self._getNextLine(nextLine)
                if lineContent is not None:
                    string += lineContent
                    maximum = len(string)
                    nextLine += 1
            elif ch not in " \t":
                break
            pos += 1
        titleRes = parseLinkTitle(string, pos, maximum, None)
        while titleRes.can_continue:
            lineContent = self._getNextLine(nextLine)
            if lineContent is None:
                break
            string += lineContent
            pos = maximum
            maximum = len(string)
            nextLine += 1
            titleRes = parseLinkTitle(string, pos, maximum, titleRes)
        if pos < maximum and start != pos and titleRes.ok:
            title = titleRes.str
            pos = titleRes.pos
        else:
            title = ""
            pos = destEndPos
            nextLine = destEndLineNo
        while pos < maximum and string[pos] in " \t":
            pos += 1
        if pos < maximum and string[pos] != "\n" and title:
            title = ""
            pos = destEndPos
            nextLine = destEndLineNo
            while pos < maximum and string[pos] in " \t":
                pos += 1
        if pos < maximum and string[pos] != "\n":
            return False
        rawLabel = string[1:labelEnd]
        label = _normalize_label(rawLabel)
        if not label:
            return False
        self.line = nextLine
        footnote_like = False
        if self.fn and self._is_fn_def(startLine):
            # The footnote plugin reads this line as a footnote definition instead.
            footnote_like = True
            if nextLine != startLine + 1:
                raise _Fallback
            first = self.bMarks[startLine] + self.tShift[startLine]
            if src.find("[^", first + 2, self.eMarks[startLine]) >= 0:
                raise _Fallback  # its text, a paragraph for the plugin, may cite footnotes
            self._footnote_defs([startLine])
            self._footnote_after(nextLine, True)
        known = self.refs.get(label)
        if known is None:
            self.refs[label] = _Ref(href, footnote_like)
            if self.spans is not None:
                self._definition_span(startLine, string, destStartPos, destEndPos, href)
        elif known.footnote_like != footnote_like:
            raise _Fallback  # the plugin and CommonMark would resolve it differently
        return True

    def _definition_span(
        self, startLine: int, string: str, start: int, end: int, href: str
    ) -> None:
        """Record where the destination ``string[start:end]`` of the definition at
        ``startLine`` is: ``string`` joins its lines from their first character, each
        ending with ``\\n``, so an offset's distance to its line's end is the same in it
        and in the source."""
        row = startLine + string.count("\n", 0, start)
        line_end = string.find("\n", start)
        at = self.eMarks[row] - ((len(string) if line_end < 0 else line_end) - start)
        assert self.spans is not None
        self.spans.append(Destination(None, row, at, at + end - start, href))

    def _html_block(self, startLine: int, endLine: int, silent: bool) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        lineText = src[pos:maximum]
        for html_seq in HTML_SEQUENCES:
            if html_seq[0].search(lineText):
                break
        else:
            return False
        if silent:
            return html_seq[2]
        nextLine = startLine + 1
        endsOnBlankLine = bool(html_seq[1].search(""))
        if not html_seq[1].search(lineText):
            while nextLine < endLine:
                if self.sCount[nextLine] < self.blkIndent and (
                    endsOnBlankLine or not self.isEmpty(nextLine)
                ):
                    break
                pos = self.bMarks[nextLine] + self.tShift[nextLine]
                lineText = src[pos : self.eMarks[nextLine]]
                if html_seq[1].search(lineText):
                    if len(lineText) != 0:
                        nextLine += 1
                    break
                nextLine += 1
        self.line = nextLine
        return True

    def _heading(self, startLine: int, silent: bool) -> bool:
        src = self.src
        pos = self.bMarks[startLine] + self.tShift[startLine]
        maximum = self.eMarks[startLine]
        m = _ATX_RE.match(src, pos, maximum)
        if m is None:
            return False
        if silent:
            return True
        # cut tails like '    ###  ' from the end of the line
        text = src[m.end() : maximum].rstrip(" \t")
        cut = text.rstrip("#")
        if cut and cut[-1] in " \t":
            text = cut
        self.line = startLine + 1
        self.inlines.append((text.strip(_TRIM), startLine, m.end() - pos, (), ()))
        return True

    def _paragraph(self, startLine: int, endLine: int) -> None:
        """markdown-it's ``lheading`` rule, then (when it fails) its ``paragraph`` rule."""
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        blkIndent = self.blkIndent
        nextLine = startLine + 1
        level = 0
        while nextLine < endLine:
            sc = sCount[nextLine]
            pos = bMarks[nextLine] + tShift[nextLine]
            maximum = eMarks[nextLine]
            if pos >= maximum:
                break  # empty line
            if sc - blkIndent > 3:
                nextLine += 1
                continue
            if sc >= blkIndent:
                marker = src[pos]
                if marker == "-" or marker == "=":
                    p = self.skipSpaces(self.skipChars(pos, marker))
                    if p >= maximum:
                        level = 1 if marker == "=" else 2
                        break
            if sc < 0:
                nextLine += 1
                continue
            ch = src[pos]
            if ch in "`~>*-_+#<0123456789" and self._terminates(nextLine, endLine, "paragraph"):
                break
            nextLine += 1
        if not level and nextLine >= endLine:
            # the paragraph rule looks past endLine, up to lineMax
            lineMax = self.lineMax
            while nextLine < lineMax:
                if self.isEmpty(nextLine):
                    break
                sc = sCount[nextLine]
                if sc - blkIndent > 3 or sc < 0:
                    nextLine += 1
                    continue
                if self._terminates(nextLine, lineMax, "paragraph"):
                    break
                nextLine += 1
        if not level:
            first = bMarks[startLine]
            last = eMarks[nextLine - 1]
            if src.find("[", first, last) < 0 and src.find("<", first, last) < 0:
                self.line = nextLine  # no link, no footnote: the text is not needed
                return
        content = self.getLines(startLine, nextLine, blkIndent, False)
        prefixes: tuple[int, ...] = ()
        boundaries: tuple[int, ...] = ()
        if self.fn and src.find("[^", bMarks[startLine], eMarks[nextLine - 1]) >= 0:
            prefixes, boundaries = self._footnote_paragraph(startLine, nextLine, content, level)
        content = content.strip(_TRIM)
        if level:
            self.line = nextLine + 1
            self.inlines.append((content, startLine, level, (), ()))
        else:
            self.line = nextLine
            self.inlines.append((content, startLine, 0, prefixes, boundaries))

    # -- footnote definitions -------------------------------------------------------

    def _footnote_paragraph(
        self, startLine: int, nextLine: int, content: str, level: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Check a paragraph against the footnote plugin's reading of it.

        The plugin starts a footnote definition at every ``[^label]:`` line that is not a
        lazy continuation. Only a top-level paragraph made of such definitions (each
        optionally continued by plain lines) splits the same way in both readings.
        Returns the offsets of the ``[`` of each definition in the trimmed content and of
        the line breaks before the second and later ones.
        """
        sCount = self.sCount
        blkIndent = self.blkIndent
        first = self._is_fn_def(startLine)
        starts = [startLine] if first else []
        for line in range(startLine + 1, nextLine):
            sc = sCount[line]
            if sc - blkIndent > 3 or sc < 0:
                continue  # lazy in both readings (only at blkIndent 0 when accepted)
            if self._is_fn_def(line):
                starts.append(line)
        if not starts:
            return (), ()
        if not first or level or self.depth or blkIndent:
            raise _Fallback
        lead = len(content) - len(content.lstrip(_TRIM))
        src = self.src
        for line in range(startLine + 1, nextLine):
            if line in starts:
                continue
            if sCount[line] >= 4:
                raise _Fallback  # the plugin would check it for terminators
            text = src[self.bMarks[line] : self.eMarks[line]]
            if _LIST_MARKER_RE.match(text):
                raise _Fallback  # a list may interrupt inside a definition
        self._footnote_defs(starts)
        self._footnote_after(nextLine, False)
        base = self.bMarks[startLine] + lead
        prefixes = tuple(self.bMarks[line] + self.tShift[line] - base for line in starts)
        boundaries = tuple(self.bMarks[line] - 1 - base for line in starts[1:])
        return prefixes, boundaries

    def _footnote_defs(self, starts: list[int]) -> None:
        """Record the definitions starting at ``starts`` (top level only)."""
        if self.depth or self.blkIndent:
            raise _Fallback
        for line in starts:
            found = self._is_fn_def(line)
            assert found is not None
            if _FN_UNSAFE.search(found.group(1)):
                raise _Fallback
            if not _plain_paragraph_at(self.src, found.end(), self.eMarks[line]):
                raise _Fallback  # the plugin may read a block (list, fence...) there
            self.fdefs.add(found.group(1))

    def _footnote_after(self, nextLine: int, after_reference: bool) -> None:
        """Make sure the plugin's last definition also ends at ``nextLine``."""
        lineMax = self.lineMax
        if nextLine < lineMax and not self.isEmpty(nextLine):
            if not after_reference:
                return  # a terminator ended the paragraph: it ends the definition too
            if self.sCount[nextLine] < 4 and (
                self._is_fn_def(nextLine) or self._terminates(nextLine, lineMax, "paragraph")
            ):
                return
            raise _Fallback  # the plugin would continue the definition on this line
        # After a blank line, an indented line continues the definition for the plugin
        # (and is a code block for CommonMark).
        line = nextLine
        while line < lineMax and self.isEmpty(line):
            line += 1
        if line < lineMax and self.sCount[line] >= 4:
            raise _Fallback
