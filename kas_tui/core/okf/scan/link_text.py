"""A link's text, tokenized as markdown-it does (code spans, escapes, entities, images,
autolinks, HTML and emphasis), for the link text :func:`extract_links` gives."""

from __future__ import annotations

from markdown_it.common.utils import (
    isMdAsciiPunct,
    isPunctChar,
    isWhiteSpace,
)

from kas_tui.core.okf.link_parser import Link
from kas_tui.core.okf.scan.common import (
    _ESCAPABLE,
    _TERMINATOR_RE,
    _TERMINATORS,
    _Fallback,
)


class _Delim:
    __slots__ = ("marker", "length", "token", "end", "open", "close")

    def __init__(self, marker: str, length: int, token: int, can_open: bool, can_close: bool):
        self.marker = marker
        self.length = length
        self.token = token
        self.end = -1
        self.open = can_open
        self.close = can_close


class _LinkText:
    """The link-text methods of :class:`kas_tui.core.okf.scan.inline._Inline` (a mixin: it needs
    the inline rules)."""

    def label_links(self, href: str, labelStart: int, labelEnd: int, links: list[Link]) -> None:
        """Tokenize a link's label as markdown-it does; emit its links like extract_links."""
        tokens = self.tokenize_label(labelStart, labelEnd)
        text_parts: list[str] | None = []
        target = href
        for token in tokens:
            kind = token[0]
            if kind == "text" or kind == "code":
                if text_parts is not None:
                    text_parts.append(token[1])
            elif kind == "image":
                links.append(Link(token[1], token[2], token[3]))
            elif kind == "auto":  # an autolink: link_open, text, link_close
                target = token[1]
                links.append(Link(target, token[2], token[3]))
                text_parts = None
        if text_parts is not None:
            links.append(Link(target, "".join(text_parts), self.line_at(labelEnd)))

    def tokenize_label(self, start: int, pmax: int) -> list[list]:
        src = self.src
        tokens: list[list] = []
        pending: list[str] = []
        delims: list[_Delim] = []
        pos = start
        while pos < pmax:
            ch = src[pos]
            if ch not in _TERMINATORS:
                m = _TERMINATOR_RE.search(src, pos)
                end = m.start() if m else pmax
                pending.append(src[pos:end])
                pos = end
                continue
            if ch == "\n":
                text = "".join(pending)
                if text.endswith(" "):
                    text = text.rstrip(" ") if text.endswith("  ") else text[:-1]
                pending = [text] if text else []
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                tokens.append(["br"])
                pos += 1
                while pos < pmax and src[pos] in " \t":
                    pos += 1
                continue
            if ch == "\\":
                if pos + 1 >= pmax:
                    pending.append(ch)
                    pos += 1
                    continue
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                nxt = src[pos + 1]
                if nxt == "\n":
                    tokens.append(["br"])
                    pos += 2
                    while pos < pmax and src[pos] in " \t":
                        pos += 1
                    continue
                escaped = nxt
                after = pos + 2
                if (
                    "\ud800" <= nxt <= "\udbff"
                    and pos + 2 < pmax
                    and "\udc00" <= src[pos + 2] <= "\udfff"
                ):
                    escaped += src[pos + 2]  # a surrogate pair
                    after += 1
                tokens.append(["text", escaped if nxt in _ESCAPABLE else "\\" + escaped])
                pos = after
                continue
            if ch == "`":
                end, is_code = self.backtick(pos, pmax)
                if is_code:
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["code", _code_content(src, pos, end)])
                    self.hide(pos, end)
                else:
                    pending.append(src[pos:end])
                pos = end
                continue
            if ch == "*" or ch == "_":
                can_open, can_close, length = self.scan_delims(pos, pmax)
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                for _ in range(length):
                    tokens.append(["text", ch])
                    delims.append(_Delim(ch, length, len(tokens) - 1, can_open, can_close))
                pos += length
                continue
            if ch == "[":
                if self.link(pos, pmax) is not None:
                    raise _Fallback  # markdown-it never nests links; be safe
                pending.append(ch)
                pos += 1
                continue
            if ch == "!":
                found = self.image(pos, pmax)
                if found is None:
                    pending.append(ch)
                    pos += 1
                    continue
                end, href, labelStart, labelEnd, ref, dest = found
                self.check_label(labelStart, labelEnd, ref)
                if pending:
                    tokens.append(["text", "".join(pending)])
                    pending = []
                tokens.append(["image", href, src[labelStart:labelEnd], self.line_at(pos)])
                if dest is not None and self.spans is not None:
                    self.spans.append((dest[0], dest[1], href))
                self.hide(pos, end)
                pos = end
                continue
            if ch == "<":
                auto = self.autolink(pos, pmax)
                if auto is not None:
                    end, href, text = auto
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["auto", href, text, self.line_at(pos)])
                    self.hide(pos, end)
                    pos = end
                    continue
                end = self.html_inline(pos, pmax)
                if end >= 0:
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["html"])
                    self.hide(pos, end)
                    pos = end
                    continue
                pending.append(ch)
                pos += 1
                continue
            if ch == "&":
                found_entity = self.entity(pos, pmax)
                if found_entity is not None:
                    end, text = found_entity
                    if pending:
                        tokens.append(["text", "".join(pending)])
                        pending = []
                    tokens.append(["text", text])
                    pos = end
                    continue
            pending.append(ch)
            pos += 1
        if pending:
            tokens.append(["text", "".join(pending)])
        if delims:
            _balance(delims)
            _unmark(tokens, delims)
        return tokens

    def scan_delims(self, start: int, pmax: int) -> tuple[bool, bool, int]:
        src = self.src
        marker = src[start]
        lastChar = src[start - 1] if start > 0 else " "
        pos = start
        while pos < pmax and src[pos] == marker:
            pos += 1
        count = pos - start
        nextChar = src[pos] if pos < pmax else " "
        isLastPunctChar = isMdAsciiPunct(ord(lastChar)) or isPunctChar(lastChar)
        isNextPunctChar = isMdAsciiPunct(ord(nextChar)) or isPunctChar(nextChar)
        isLastWhiteSpace = isWhiteSpace(ord(lastChar))
        isNextWhiteSpace = isWhiteSpace(ord(nextChar))
        left_flanking = not (
            isNextWhiteSpace or (isNextPunctChar and not (isLastWhiteSpace or isLastPunctChar))
        )
        right_flanking = not (
            isLastWhiteSpace or (isLastPunctChar and not (isNextWhiteSpace or isNextPunctChar))
        )
        canSplitWord = marker == "*"
        can_open = left_flanking and (canSplitWord or (not right_flanking) or isLastPunctChar)
        can_close = right_flanking and (canSplitWord or (not left_flanking) or isNextPunctChar)
        return can_open, can_close, count


def _code_content(src: str, start: int, end: int) -> str:
    pos = start
    while src[pos] == "`":
        pos += 1
    length = pos - start
    content = src[pos : end - length].replace("\n", " ")
    if content.startswith(" ") and content.endswith(" ") and any(c != " " for c in content):
        content = content[1:-1]
    return content


def _balance(delimiters: list[_Delim]) -> None:
    """markdown-it's ``balance_pairs.processDelimiters`` (emphasis markers only)."""
    openersBottom: dict[str, list[int]] = {}
    maximum = len(delimiters)
    headerIdx = 0
    lastTokenIdx = -2
    jumps: list[int] = []
    closerIdx = 0
    while closerIdx < maximum:
        closer = delimiters[closerIdx]
        jumps.append(0)
        if delimiters[headerIdx].marker != closer.marker or lastTokenIdx != closer.token - 1:
            headerIdx = closerIdx
        lastTokenIdx = closer.token
        if not closer.close:
            closerIdx += 1
            continue
        if closer.marker not in openersBottom:
            openersBottom[closer.marker] = [-1, -1, -1, -1, -1, -1]
        minOpenerIdx = openersBottom[closer.marker][(3 if closer.open else 0) + (closer.length % 3)]
        openerIdx = headerIdx - jumps[headerIdx] - 1
        newMinOpenerIdx = openerIdx
        while openerIdx > minOpenerIdx:
            opener = delimiters[openerIdx]
            if opener.marker != closer.marker:
                openerIdx -= jumps[openerIdx] + 1
                continue
            if opener.open and opener.end < 0:
                isOddMatch = (
                    (opener.close or closer.open)
                    and (opener.length + closer.length) % 3 == 0
                    and (opener.length % 3 != 0 or closer.length % 3 != 0)
                )
                if not isOddMatch:
                    if openerIdx > 0 and not delimiters[openerIdx - 1].open:
                        lastJump = jumps[openerIdx - 1] + 1
                    else:
                        lastJump = 0
                    jumps[closerIdx] = closerIdx - openerIdx + lastJump
                    jumps[openerIdx] = lastJump
                    closer.open = False
                    opener.end = closerIdx
                    opener.close = False
                    newMinOpenerIdx = -1
                    lastTokenIdx = -2
                    break
            openerIdx -= jumps[openerIdx] + 1
        if newMinOpenerIdx != -1:
            openersBottom[closer.marker][(3 if closer.open else 0) + (closer.length % 3)] = (
                newMinOpenerIdx
            )
        closerIdx += 1


def _unmark(tokens: list[list], delimiters: list[_Delim]) -> None:
    """Empty the text of markers that became emphasis (markdown-it's emphasis postProcess)."""
    i = len(delimiters) - 1
    while i >= 0:
        start = delimiters[i]
        if start.end == -1:
            i -= 1
            continue
        end = delimiters[start.end]
        isStrong = (
            i > 0
            and delimiters[i - 1].end == start.end + 1
            and delimiters[i - 1].marker == start.marker
            and delimiters[i - 1].token == start.token - 1
            and delimiters[start.end + 1].token == end.token + 1
        )
        tokens[start.token] = ["em"]
        tokens[end.token] = ["em"]
        if isStrong:
            tokens[delimiters[i - 1].token][1:] = [""]
            tokens[delimiters[start.end + 1].token][1:] = [""]
            i -= 1
        i -= 1
