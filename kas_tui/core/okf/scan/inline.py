"""markdown-it's inline rules, as far as they decide where links, images and footnote
references are."""

from __future__ import annotations

import re

from markdown_it.common.entities import entities as _ENTITIES
from markdown_it.common.html_re import HTML_TAG_RE
from markdown_it.common.utils import (
    fromCodePoint,
    isValidEntityCode,
    unescapeAll,
)
from markdown_it.helpers import parseLinkTitle
from markdown_it.rules_inline.autolink import AUTOLINK_RE, EMAIL_RE
from markdown_it.rules_inline.entity import DIGITAL_RE, NAMED_RE

from kas_tui.core.okf.link_parser import Link
from kas_tui.core.okf.scan.common import (
    _ACTIVE_RE,
    _FN_REF_RE,
    _FN_UNSAFE,
    _LABEL_END_RE,
    _MAX_INLINE_DEPTH,
    _TERMINATOR_RE,
    _TERMINATORS,
    Destination,
    _destination,
    _Fallback,
    _Found,
    _normalize_label,
    _normalize_link,
    _normalize_link_text,
    _Ref,
)
from kas_tui.core.okf.scan.link_text import (
    _LinkText,
)


def _inline_destinations(
    content: str, row: int, refs: dict[str, _Ref], spans: list[Destination]
) -> None:
    """Add the destinations of the inline links and images of ``content`` to ``spans``."""
    inline = _Inline(content, refs, False, (), ())
    inline.spans = found = []
    inline.scan(row, [], set())
    spans.extend(Destination(content, row, start, end, target) for start, end, target in found)


class _Inline(_LinkText):
    """markdown-it's inline rules, as far as they decide links, images and footnotes."""

    cache: dict[int, int]
    backticks: dict[int, int] | None = None
    html_last: dict[str, int] | None = None
    depth = 0  # nested skip_token calls
    nl_pos = 0
    nl_count = 0
    hidden = 0  # line breaks inside tokens (no softbreak for them)
    base = 0
    #: When a list, :meth:`scan` adds ``(start, end, target)`` of each inline link's and
    #: image's destination to it.
    spans: list[tuple[int, int, str]] | None = None

    def __init__(
        self,
        src: str,
        refs: dict[str, _Ref],
        fn: bool,
        prefixes: tuple[int, ...],
        boundaries: tuple[int, ...],
    ) -> None:
        self.src = src
        self.refs = refs
        self.fn = fn
        self.prefixes = prefixes
        self.boundaries = boundaries
        self.cache = {}

    def line_at(self, pos: int) -> int:
        """The line of a token starting at ``pos`` (positions only grow)."""
        self.nl_count += self.src.count("\n", self.nl_pos, pos)
        self.nl_pos = pos
        return self.base + self.nl_count - self.hidden

    def hide(self, start: int, end: int) -> None:
        """Line breaks in ``src[start:end]`` belong to one token, not to softbreaks."""
        if self.boundaries:
            for nl in self.boundaries:
                if start <= nl < end:
                    raise _Fallback  # a token across two footnote definitions
        self.hidden += self.src.count("\n", start, end)

    def scan(self, line: int, links: list[Link], footnotes: set[str]) -> None:
        src = self.src
        n = len(src)
        self.base = line
        pos = 0
        search = _ACTIVE_RE.search
        simple_link = _SIMPLE_LINK_RE.match
        while True:
            m = search(src, pos)
            if m is None:
                return
            p = m.start()
            ch = src[p]
            if ch == "\\":
                pos = p + 2  # an escape (or a final backslash: nothing follows)
            elif ch == "`":
                end, is_code = self.backtick(p, n)
                if is_code:
                    self.hide(p, end)
                pos = end
            elif ch == "[":
                simple = simple_link(src, p, n)
                if simple is not None:  # [text](destination): the usual case, in one match
                    text, dest = simple.groups()
                    href = _normalize_link(unescapeAll(dest) if "&" in dest else dest)
                    links.append(Link(href, text, self.line_at(p)))
                    if self.spans is not None:
                        self.spans.append((simple.start(2), simple.end(2), href))
                    pos = simple.end()
                    continue
                if self.fn and src.startswith("[^", p):
                    pos = self.footnote_or_link(p, n, links, footnotes)
                    continue
                found = self.link(p, n)
                pos = p + 1 if found is None else self.emit_link(p, found, links)
            elif ch == "!":
                found = self.image(p, n)
                if found is None:
                    pos = p + 1
                else:
                    end, href, labelStart, labelEnd, ref, dest = found
                    self.check_label(labelStart, labelEnd, ref)
                    links.append(Link(href, src[labelStart:labelEnd], self.line_at(p)))
                    if dest is not None and self.spans is not None:
                        self.spans.append((dest[0], dest[1], href))
                    self.hide(p, end)
                    pos = end
            else:  # "<"
                auto = self.autolink(p, n)
                if auto is not None:
                    end, href, text = auto
                    links.append(Link(href, text, self.line_at(p)))
                    self.hide(p, end)
                    pos = end
                    continue
                end = self.html_inline(p, n)
                if end < 0:
                    pos = p + 1
                else:
                    self.hide(p, end)
                    pos = end

    def footnote_or_link(self, p: int, n: int, links: list[Link], footnotes: set[str]) -> int:
        """At ``[^``: a link for CommonMark, maybe a footnote reference for the plugin."""
        ref_match = _FN_REF_RE.match(self.src, p, n)
        found = self.link(p, n)
        if ref_match is not None:
            label = ref_match.group(1)
            if _FN_UNSAFE.search(label):
                raise _Fallback
            is_definition = p in self.prefixes
            if found is None:
                if not is_definition:
                    footnotes.add(label)
            elif found[4] is not None and found[4].footnote_like:
                # The plugin has no such reference definition: it reads a footnote.
                if found[0] != ref_match.end():
                    raise _Fallback
                if not is_definition:
                    footnotes.add(label)
                end = self.emit_link(p, found, links, footnote_ok=True)
                return end
        if found is None:
            return p + 1
        return self.emit_link(p, found, links)

    def check_label(self, labelStart: int, labelEnd: int, ref: _Ref | None) -> None:
        """Links whose reading differs under the footnote plugin are not for the fast path."""
        if self.fn and (
            "[^" in self.src[labelStart:labelEnd] or (ref is not None and ref.footnote_like)
        ):
            raise _Fallback

    def emit_link(
        self,
        p: int,
        found: _Found,
        links: list[Link],
        *,
        footnote_ok: bool = False,
    ) -> int:
        end, href, labelStart, labelEnd, ref, dest = found
        if dest is not None and self.spans is not None:
            self.spans.append((dest[0], dest[1], href))
        if not footnote_ok:
            self.check_label(labelStart, labelEnd, ref)
        if self.boundaries:
            for nl in self.boundaries:
                if p <= nl < end:
                    raise _Fallback
        label = self.src[labelStart:labelEnd]
        if _LABEL_SIMPLE_RE.search(label) is None:
            links.append(Link(href, label, self.line_at(labelEnd)))
        else:
            self.label_links(href, labelStart, labelEnd, links)
        self.hidden += self.src.count("\n", labelEnd, end)
        return end

    def skip_token(self, pos: int, pmax: int) -> int:
        cached = self.cache.get(pos)
        if cached is not None:
            return cached
        if self.depth >= _MAX_INLINE_DEPTH:
            raise _Fallback
        self.depth += 1
        try:
            end = self.silent_rules(pos, pmax)
        finally:
            self.depth -= 1
        if end < 0:
            end = pos + 1
        self.cache[pos] = end
        return end

    def silent_rules(self, pos: int, pmax: int) -> int:
        src = self.src
        ch = src[pos]
        if ch not in _TERMINATORS:
            m = _TERMINATOR_RE.search(src, pos)
            return m.start() if m else pmax
        if ch == "\n":
            pos += 1
            while pos < pmax and src[pos] in " \t":
                pos += 1
            return pos
        if ch == "\\":
            if pos + 1 >= pmax:
                return -1
            if src[pos + 1] == "\n":
                pos += 2
                while pos < pmax and src[pos] in " \t":
                    pos += 1
                return pos
            nxt = src[pos + 1]
            if (
                "\ud800" <= nxt <= "\udbff"
                and pos + 2 < pmax
                and "\udc00" <= src[pos + 2] <= "\udfff"
            ):
                return pos + 3
            return pos + 2
        if ch == "`":
            return self.backtick(pos, pmax)[0]
        if ch == "[":
            found = self.link(pos, pmax)
            return -1 if found is None else found[0]
        if ch == "!":
            found = self.image(pos, pmax)
            return -1 if found is None else found[0]
        if ch == "<":
            auto = self.autolink(pos, pmax)
            if auto is not None:
                return auto[0]
            return self.html_inline(pos, pmax)
        if ch == "&":
            found_entity = self.entity(pos, pmax)
            return -1 if found_entity is None else found_entity[0]
        return -1

    def backtick(self, start: int, maximum: int) -> tuple[int, bool]:
        """End of the code span at ``start`` (True) or of its unmatched run (False)."""
        src = self.src
        pos = start + 1
        while pos < maximum and src[pos] == "`":
            pos += 1
        opener_length = pos - start
        if self.backticks is None:
            runs: dict[int, int] = {}
            p = 0
            n = len(src)
            while (s := src.find("`", p)) != -1:
                p = s + 1
                while p < n and src[p] == "`":
                    p += 1
                runs[p - s] = s
            self.backticks = runs
        if self.backticks.get(opener_length, -1) >= pos:
            match_end = pos
            n = len(src)
            while (match_start := src.find("`", match_end)) != -1 and match_start < maximum:
                match_end = match_start + 1
                while match_end < n and src[match_end] == "`":
                    match_end += 1
                if match_end > maximum:
                    break
                if match_end - match_start == opener_length:
                    return match_end, True
        return pos, False

    def parse_link_label(self, start: int, pmax: int, disable_nested: bool) -> int:
        src = self.src
        pos = start + 1
        m = _LABEL_END_RE.search(src, pos, pmax)
        if m is not None and src[m.start()] == "]":
            return m.start()
        level = 1
        while pos < pmax:
            marker = src[pos]
            if marker == "]":
                level -= 1
                if level == 0:
                    return pos
            prev = pos
            pos = self.skip_token(pos, pmax)
            if marker == "[":
                if prev == pos - 1:
                    level += 1
                elif disable_nested:
                    return -1
        return -1

    def _reference_end(
        self, pos: int, pmax: int, labelStart: int, labelEnd: int
    ) -> tuple[int, _Ref] | None:
        if not self.refs:
            return None
        src = self.src
        label = None
        if pos < pmax and src[pos] == "[":
            start = pos + 1
            pos = self.parse_link_label(pos, pmax, False)
            if pos >= 0:
                label = src[start:pos]
                pos += 1
            else:
                pos = labelEnd + 1
        else:
            pos = labelEnd + 1
        if not label:
            label = src[labelStart:labelEnd]
        ref = self.refs.get(_normalize_label(label))
        if ref is None:
            return None
        return pos, ref

    def link(self, start: int, pmax: int) -> _Found | None:
        src = self.src
        labelStart = start + 1
        labelEnd = self.parse_link_label(start, pmax, True)
        if labelEnd < 0:
            return None
        pos = labelEnd + 1
        href = ""
        span = None
        parseReference = True
        if pos < pmax and src[pos] == "(":
            parseReference = False
            pos += 1
            while pos < pmax and src[pos] in " \t\n":
                pos += 1
            if pos >= pmax:
                return None
            ok, dest, end = _destination(src, pos, pmax)
            if ok:
                href = _normalize_link(dest)
                span = (pos, end)
                pos = end
                begin = pos
                while pos < pmax and src[pos] in " \t\n":
                    pos += 1
                res = parseLinkTitle(src, pos, pmax)
                if pos < pmax and begin != pos and res.ok:
                    pos = res.pos
                    while pos < pmax and src[pos] in " \t\n":
                        pos += 1
            if pos >= pmax or src[pos] != ")":
                parseReference = True
            pos += 1
        if parseReference:
            found = self._reference_end(pos, pmax, labelStart, labelEnd)
            if found is None:
                return None
            return found[0], found[1].href, labelStart, labelEnd, found[1], None
        return pos, href, labelStart, labelEnd, None, span

    def image(self, start: int, pmax: int) -> _Found | None:
        src = self.src
        if start + 1 < pmax and src[start + 1] != "[":
            return None
        labelStart = start + 2
        labelEnd = self.parse_link_label(start + 1, pmax, False)
        if labelEnd < 0:
            return None
        pos = labelEnd + 1
        href = ""
        span = None
        if pos < pmax and src[pos] == "(":
            pos += 1
            while pos < pmax and src[pos] in " \t\n":
                pos += 1
            if pos >= pmax:
                return None
            ok, dest, end = _destination(src, pos, pmax)
            if ok:
                href = _normalize_link(dest)
                span = (pos, end)
                pos = end
            begin = pos
            while pos < pmax and src[pos] in " \t\n":
                pos += 1
            res = parseLinkTitle(src, pos, pmax, None)
            if pos < pmax and begin != pos and res.ok:
                pos = res.pos
                while pos < pmax and src[pos] in " \t\n":
                    pos += 1
            if pos >= pmax or src[pos] != ")":
                return None
            return pos + 1, href, labelStart, labelEnd, None, span
        found = self._reference_end(pos, pmax, labelStart, labelEnd)
        if found is None:
            return None
        return found[0], found[1].href, labelStart, labelEnd, found[1], None

    def autolink(self, start: int, pmax: int) -> tuple[int, str, str] | None:
        src = self.src
        close = src.find(">", start + 1, pmax)
        if close < 0:
            return None
        url = src[start + 1 : close]
        if "<" in url:
            return None
        if AUTOLINK_RE.search(url) is not None:
            return close + 1, _normalize_link(url), _normalize_link_text(url)
        if EMAIL_RE.search(url) is not None:
            return close + 1, _normalize_link("mailto:" + url), _normalize_link_text(url)
        return None

    def _last(self, term: str) -> int:
        if self.html_last is None:
            self.html_last = {}
        found = self.html_last.get(term)
        if found is None:
            found = self.html_last[term] = self.src.rfind(term)
        return found

    def html_inline(self, pos: int, pmax: int) -> int:
        src = self.src
        if pos + 2 >= pmax:
            return -1
        ch = src[pos + 1]
        if ch not in "!?/" and not ("a" <= ch <= "z" or "A" <= ch <= "Z"):
            return -1
        if src.startswith("<!--", pos):
            if self._last(">") < pos + 4:
                return -1
            if (
                not src.startswith("<!-->", pos)
                and not src.startswith("<!--->", pos)
                and self._last("-->") < pos + 4
            ):
                return -1
        elif src.startswith("<![CDATA[", pos):
            if self._last("]]>") < pos + 9:
                return -1
        elif ch == "?":
            if self._last("?>") < pos + 2:
                return -1
        elif ch == "!":
            if self._last(">") < pos + 3:
                return -1
        elif self._last(">") < pos + 2:
            return -1
        match = HTML_TAG_RE.match(src, pos)
        if not match:
            return -1
        return pos + len(match.group(0))

    def entity(self, pos: int, pmax: int) -> tuple[int, str] | None:
        src = self.src
        if pos + 1 >= pmax:
            return None
        if src[pos + 1] == "#":
            match = DIGITAL_RE.match(src, pos)
            if match:
                code_str = match.group(1)
                code = int(code_str[1:], 16) if code_str[0] in "xX" else int(code_str, 10)
                text = fromCodePoint(code) if isValidEntityCode(code) else fromCodePoint(0xFFFD)
                return pos + len(match.group(0)), text
            return None
        match = NAMED_RE.match(src, pos)
        if match and match.group(1) in _ENTITIES:
            return pos + len(match.group(0)), _ENTITIES[match.group(1)]
        return None


#: ``[text](destination)`` where nothing in the text is an inline token and the
#: destination is plain: the whole of markdown-it's link rule gives this same reading.
_SIMPLE_LINK_RE = re.compile(
    r"\[([^\]\\`<\[\n*_!&]*)\]\(([^ \x00-\x1f\x7f()\\<][^ \x00-\x1f\x7f()\\]*)\)"
)


#: A label holding none of these is its own link text (no inline token inside it).
_LABEL_SIMPLE_RE = re.compile(r"[\n\\`*_\[!<&]")
