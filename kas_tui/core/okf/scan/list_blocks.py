"""markdown-it's list rule (``rules_block/list.py``) and the paragraphs of list items, for
the block scanner."""

from __future__ import annotations

from markdown_it.common.utils import MD_TRIM_CHARS as _TRIM  # what markdown-it's mdTrim strips

from kas_tui.core.okf.scan.common import (
    _LINE_MARKS,
    _MARKER_RE,
    _MAX_BLOCK_LEVEL,
    _SPACES_RE,
    _plain_paragraph_at,
)


class _ListBlocks:
    """The list rule of :class:`kas_tui.core.okf.scan.blocks._Blocks` (a mixin, as
    :class:`~kas_tui.core.okf.scan.leaf_blocks._LeafBlocks`: it uses its state, helpers
    and terminator check)."""

    def _list(self, startLine: int, endLine: int, silent: bool, parent: str) -> bool:
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        bsCount = self.bsCount
        if (
            self.listIndent >= 0
            and sCount[startLine] - self.listIndent >= 4
            and sCount[startLine] < self.blkIndent
        ):
            return False
        marker = _MARKER_RE.match(src, bMarks[startLine] + tShift[startLine], eMarks[startLine])
        if marker is None:
            return False
        posAfterMarker = marker.end()
        isOrdered = marker.group(1) is None
        if silent and parent == "paragraph" and sCount[startLine] >= self.blkIndent:
            # a list interrupting a paragraph starts with 1 and is not empty
            if isOrdered and int(marker.group(2)) != 1:
                return False
            if self.skipSpaces(posAfterMarker) >= eMarks[startLine]:
                return False
        if silent:
            return True

        markerChar = src[posAfterMarker - 1]
        nextLine = startLine
        self.level += 1
        while nextLine < endLine:
            pos = posAfterMarker
            maximum = eMarks[nextLine]
            initial = offset = (
                sCount[nextLine] + posAfterMarker - (bMarks[startLine] + tShift[startLine])
            )
            if self.tabs:
                while pos < maximum:
                    ch = src[pos]
                    if ch == "\t":
                        offset += 4 - (offset + bsCount[nextLine]) % 4
                    elif ch == " ":
                        offset += 1
                    else:
                        break
                    pos += 1
            else:
                pos = _SPACES_RE.match(src, pos, maximum).end()
                offset += pos - posAfterMarker
            contentStart = pos
            indentAfterMarker = 1 if contentStart >= maximum else offset - initial
            if indentAfterMarker > 4:
                indentAfterMarker = 1
            indent = initial + indentAfterMarker

            end = -1
            if (
                contentStart < maximum
                and offset - initial <= 4
                and not self.tabs
                and self.level + 1 < _MAX_BLOCK_LEVEL
                and _plain_paragraph_at(src, contentStart, maximum)
            ):
                end = self._paragraph_item(startLine, contentStart, indent, endLine)
            if end >= 0:  # the item was one paragraph: done
                self.line = end
            else:
                oldTShift = tShift[startLine]
                oldSCount = sCount[startLine]
                oldListIndent = self.listIndent
                self.listIndent = self.blkIndent
                self.blkIndent = indent
                tShift[startLine] = contentStart - bMarks[startLine]
                sCount[startLine] = offset
                self.level += 1
                self.depth += 1
                if contentStart >= maximum and self.isEmpty(startLine + 1):
                    self.line = min(self.line + 2, endLine)
                else:
                    self.tokenize(startLine, endLine)
                self.depth -= 1
                self.level -= 1
                self.blkIndent = self.listIndent
                self.listIndent = oldListIndent
                tShift[startLine] = oldTShift
                sCount[startLine] = oldSCount

            nextLine = startLine = self.line
            if nextLine >= endLine:
                break
            if sCount[nextLine] < self.blkIndent:
                break
            if sCount[startLine] - self.blkIndent >= 4:
                break
            pos = bMarks[nextLine] + tShift[nextLine]
            maximum = eMarks[nextLine]
            if pos >= maximum:
                break
            ch = src[pos]
            if ch in "`~>*-_" and self._terminates(nextLine, endLine, "list"):
                break
            marker = _MARKER_RE.match(src, pos, maximum)
            if marker is None or (marker.group(1) is None) != isOrdered:
                break
            posAfterMarker = marker.end()
            if markerChar != src[posAfterMarker - 1]:
                break
        self.level -= 1
        self.line = nextLine
        return True

    def _paragraph_item(self, startLine: int, contentStart: int, indent: int, endLine: int) -> int:
        """Where a list item made of one paragraph ends (its inline block recorded), or -1.

        The item's text starts at ``contentStart`` with a paragraph (the caller checked
        that no other rule matches there); its content indent is ``indent`` and the
        list's is ``self.blkIndent``. This replays tokenize -> paragraph -> terminators
        for the usual shapes: plain lines continue the paragraph, and it ends either at
        a sibling item (which also ends the item) or at a blank line followed by an
        outdented line. Anything else (an underline, another block in the item, ...) is
        left to the literal port: -1.
        """
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        tShift = self.tShift
        sCount = self.sCount
        outer = self.blkIndent  # the list's indent: listIndent inside the item
        line = startLine + 1
        while True:
            if line >= endLine:
                return -1  # the paragraph rule would go on up to lineMax
            pos = bMarks[line] + tShift[line]
            maximum = eMarks[line]
            if pos >= maximum:
                break  # a blank line ends the paragraph
            sc = sCount[line]
            if sc < 0 or sc - indent > 3 or src[pos] not in _LINE_MARKS:
                line += 1  # a lazy or plain line continues it
                continue
            if sc < indent and sc - outer < 4 and _MARKER_RE.match(src, pos, maximum):
                # a sibling item: a terminator, then an outdented line ends the item
                return self._item_paragraph(startLine, contentStart, line, indent, line)
            return -1
        end = line
        line += 1
        if line < endLine:
            lineMax = self.lineMax
            while line < lineMax and bMarks[line] + tShift[line] >= eMarks[line]:
                line += 1
            if line < endLine and sCount[line] >= indent:
                return -1  # the item goes on
        return self._item_paragraph(startLine, contentStart, end, indent, line)

    def _item_paragraph(
        self, startLine: int, contentStart: int, end: int, indent: int, itemEnd: int
    ) -> int:
        """Record the paragraph ``startLine:end`` of a list item; return ``itemEnd``.

        -1 when it may hold a footnote definition (the literal port checks those).
        """
        src = self.src
        bMarks = self.bMarks
        eMarks = self.eMarks
        last = eMarks[end - 1]
        if self.fn and src.find("[^", contentStart, last) >= 0:
            return -1
        if src.find("[", contentStart, last) >= 0 or src.find("<", contentStart, last) >= 0:
            # getLines(startLine, end, indent) with the item's first line starting at
            # contentStart; no tabs, so min(indent, tShift) characters are indentation.
            tShift = self.tShift
            parts = [src[contentStart : eMarks[startLine]]]
            for line in range(startLine + 1, end):
                t = tShift[line]
                parts.append(src[bMarks[line] + (indent if indent < t else t) : eMarks[line]])
            content = "\n".join(parts)
            self.inlines.append((content.strip(_TRIM), startLine, 0, (), ()))
        return itemEnd
