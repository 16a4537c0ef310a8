"""The drafting heuristics: a converted document's title, description, type and tags,
each from the document or its file (see :mod:`kas_tui.features.importing.draft`).

The title from its metadata, its first heading or its cleaned file name; the
description from its first informative sentence (never the title again, one sentence
of at most about 200 characters, and it must pass the checker's own test for
descriptions that say nothing); the type from the source's own hints, the shape of its
content and the types the target bundle already uses.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from kas_tui.features.importing.convert import Converted
from kas_tui.features.importing.doc_shape import (
    GENERATED_REFERENCE,
    changelog_sentence,
    command_sentence,
    names_only_shared_sections,
    opening_sentence,
    shape_sentence,
)
from kas_tui.features.importing.myst_directives import VERSIONS
from kas_tui.text import prose
from kas_tui.text.alike import AlikeSet
from kas_tui.text.description_verdicts import LONG_DESCRIPTION, norm, says_nothing
from kas_tui.text.openings import without_preamble
from kas_tui.text.section_topics import questions_sentence, section_topics, with_topics
from kas_tui.text.slug import without_order_prefix

#: Longest drafted description (the checker's KAS045 threshold).
MAX_DESCRIPTION = LONG_DESCRIPTION
MAX_TITLE = 120


_JUNK_TITLE = re.compile(
    r"^(?:\(?(?:untitled|anonymous|unspecified|unknown|none|title|no title)\)?"
    r"|(?:document|presentation|book|workbook|slide|sheet)\s*\d*"
    r"|microsoft (?:word|powerpoint|excel) - .*|.*\.(?:docx?|pptx?|xlsx?|pdf|html?|txt))$",
    re.I,
)
#: A heading over a page's own list of its sections: no title of the page.
_CONTENTS = re.compile(r"(?:table of contents|contents|toc)\s*:?", re.I)
_HTML_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1\s*>", re.I | re.S)
#: A fenced code block, to its closing fence or the end of the text read: an example's
#: ``<h1>Hello, world!</h1>`` is no title of the page showing it.
_CODE_FENCED = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,}).*?(?:^[ \t]{0,3}\1|\Z)", re.M | re.S)
#: A reference definition's label (``  [MkDocs]: https://www.mkdocs.org``), and a
#: bracketed phrase that may be a shortcut reference to one.
_REF_DEFINITION = re.compile(r"^[ \t]{0,3}\[([^\]^][^\]]*)\]:", re.M)
_SHORTCUT = re.compile(r"\[([^\]\[]+)\](?![(\[:])")
_BOILERPLATE = re.compile(
    r"^(?:skip to|jump to|copyright|©|\(c\)|all rights reserved|table of contents|contents\b"
    r"|click here|sign in|log in|subscribe|share this|posted (?:on|by)|published|last updated"
    r"|updated:|by [A-Z][a-z]+ [A-Z]|menu\b|home\b|search\b|cookie|accept all|read more"
    r"|what's new|page \d+|\d+ min read|this (?:page|site) uses"
    # a version note, as Sphinx words it ("Changed in version 23.0: ..."): when the page
    # changed, not what it answers
    rf"|(?:{'|'.join(re.escape(w) for w in VERSIONS.values())}) \S)",
    re.I,
)


# --- title ---------------------------------------------------------------------------------------


#: What separates a file name's words: spaces, underscores, hyphens, and dots but those
#: between digits.
_NAME_BREAKS = re.compile(r"[\s_\-]+|(?<!\d)\.+|\.+(?!\d)")


#: A section heading numbered as a step ("### 1. Single domain"): never the page's title.
_STEP = re.compile(r"\d+[.)]\s")


def clean_file_title(stem: str) -> str:
    """A file name as a title: ``refund_policy-2026`` -> ``Refund policy 2026``, ``02-if``
    -> ``If`` (a number that orders it names nothing); a dot
    between digits is a version's (Obsidian's release notes ``v0.9.6.md``: "V0.9.6", not
    "V0 9 6")."""
    parts = [p for p in _NAME_BREAKS.split(without_order_prefix(stem)) if p]
    if not parts:
        return "Untitled"
    if not all(p.isupper() for p in parts if p.isalpha()):
        parts = [p.capitalize() if p.isupper() and len(p) > 4 else p for p in parts]
    else:
        parts = [p.lower() for p in parts]
    title = " ".join(parts)
    return title[0].upper() + title[1:]


def _clean_title(text: str) -> str:
    text = " ".join(text.split()).strip(" :-–—|#*")
    return prose.clip(text, MAX_TITLE)


def draft_title(converted: Converted, parsed: list[prose.Block]) -> str:
    """The document's title: its metadata, its first heading, or its cleaned file name."""
    props_title = converted.properties.get("title", "")
    if props_title and not _JUNK_TITLE.match(props_title.strip()) and len(props_title) > 2:
        return _clean_title(props_title)
    if converted.title and not _JUNK_TITLE.match(converted.title.strip()):
        title = converted.title
        if converted.kind == "html" and " | " in title:
            title = title.split(" | ")[0]
        return _clean_title(title)
    if converted.kind not in ("xlsx", "xls", "csv", "code"):
        # a page opening with an mkdocstrings directive opens with the reference's own
        # heading: its first "## See also" is a section, no title
        first_is_h1 = not GENERATED_REFERENCE.match(converted.markdown.lstrip())
        # "# 1. Install", "# 2. Configure": first-level headings that are the page's steps
        steps = sum(1 for b in parsed[:30] if b.kind == "heading" and _STEP.match(b.text)) > 1
        for n, block in enumerate(parsed[:30]):
            if (
                block.kind == "heading"
                and _CONTENTS.fullmatch(block.text.strip())
                and any(b.kind == "heading" and b.level == 1 for b in parsed[n + 1 : 30])
            ):
                continue  # the page's own table of contents, its title below it
            if (
                block.kind == "heading"
                and (block.level == 1 or (n == 0 and first_is_h1))
                and not ((steps or block.level > 1) and _STEP.match(block.text))
                and not _JUNK_TITLE.match(block.text)
                and prose.words(block.text)
            ):
                return _clean_title(block.text)
            if block.kind == "heading" or converted.kind not in ("markdown", "text"):
                break
            if _prose_before(parsed[: n + 1]) >= _PROSE_BEFORE_SECTION:
                break  # the page's own opening: a first-level heading below it is a section
            # a Markdown page's H1 may follow a banner, an admonition or a badge line
        first = next((b for b in parsed[:3] if b.kind == "paragraph"), None)
        if first is not None and converted.kind in ("docx", "pdf", "text") and _title_like(first):
            return _clean_title(first.text)
    text = _html_h1(converted)
    if text:
        return _clean_title(text)
    return clean_file_title(converted.source.stem)


def _html_h1(converted: Converted) -> str:
    """The text of a Markdown page's HTML ``<h1>`` (a README-style page opens with a
    centred one), outside its code examples; '' when it has none."""
    if converted.kind != "markdown":
        return ""
    html = _HTML_H1.search(_CODE_FENCED.sub("", converted.markdown[:4000]))
    text = prose.inline_text(re.sub(r"<[^>]*>", " ", html.group(1))) if html else ""
    return text if prose.words(text) and not _JUNK_TITLE.match(text) else ""


def has_own_title(converted: Converted, parsed: list[prose.Block]) -> bool:
    """Whether the page names itself: a title in its metadata, a first-level heading or
    an HTML ``<h1>`` (a page opening with a "## 0.47.3" section has none: its site's TOC
    names it)."""
    if converted.properties.get("title") or converted.title:
        return True
    for n, block in enumerate(parsed[:30]):
        if block.kind == "heading" and block.level == 1:
            return _prose_before(parsed[:n]) < _PROSE_BEFORE_SECTION
    return bool(_html_h1(converted))


#: Headings any page might open with, naming a part of it rather than what it is about.
_SECTION_NAMES = frozenset(
    {"overview", "introduction", "intro", "references", "reference", "summary", "contents"}
    | {"table of contents", "background", "description", "details", "notes", "about"}
)


def is_section_name(title: str) -> bool:
    """Whether ``title`` names a part of a page ("Overview", "References"), not its
    subject."""
    named = " ".join(w for w in prose.words(title) if len(w) > 1)  # "ℹ️ Introduction" too
    return named.casefold() in _SECTION_NAMES


#: Paragraphs of prose a page opens with before a first-level heading that is then one of
#: its sections, not its title (a GitBook page: two paragraphs, then "# References").
_PROSE_BEFORE_SECTION = 2


def _prose_before(blocks: list[prose.Block]) -> int:
    """How many of ``blocks`` are paragraphs of prose: sentences of eight words or more
    (a badge line, a banner's few words are not)."""
    return sum(
        1
        for b in blocks
        if b.kind == "paragraph"
        and len(prose.words(b.text)) >= 8
        and b.text.rstrip()[-1:] in ".!?:"
    )


def _title_like(block: prose.Block) -> bool:
    text = block.text
    n = len(prose.words(text))
    return (
        3 <= n <= 14
        and len(text) <= 110
        and not text.rstrip().endswith((".", ",", ";"))
        and prose.letter_count(text) > len(text) * 0.6
        and not text.isupper()
    )


# --- description ---------------------------------------------------------------------------------


#: A first word a capital may have been given: lower case after it, parts hyphenated
#: ("Pnpm", "Sphinx-build", "Eslint-config-prettier").
_CAPITALISED = re.compile(r"[A-Z][a-z]*(?:-[a-z]+)*")
#: Where a paragraph or a list item opens.
_PARAGRAPH_START = r"(?:\A|\n[ \t]*\n)[ \t]*(?:(?:[-*+]|\d+[.)])[ \t]+)?"


def _first_word_as_written(text: str, markdown: str) -> str:
    """``text`` with its first word lower case again when the paragraph it comes from
    opens with it so, in lower case (or as code): a name written lower case, which the
    capital a description opens with would misspell ("pnpm settings are divided...",
    "`pn` is available as a short alias": they read "Pnpm", "Pn"). Only that paragraph
    tells: another opening "if you..." says nothing of one opening "If you..."."""
    first, _space, rest = text.partition(" ")
    if not _CAPITALISED.fullmatch(first):
        return text
    written = first[0].lower() + first[1:]
    if written not in markdown:
        return text
    # the paragraph (or list item) the sentence is: its first words, as the description
    # has them, the name as code, emphasis or a link's text
    after = r"[`*_]*\s+".join(re.escape(w) for w in rest.split(" ")[:2] if w)
    pattern = rf"{_PARAGRAPH_START}[`*_\[]*{re.escape(written)}[`*_]*(?:\]\([^)\s]*\))?" + (
        rf"\s+{after}" if after else r"\b"
    )
    if not re.search(pattern, markdown):
        return text
    return f"{written} {rest}" if rest else written


def _as_written(draft: Callable[..., str]) -> Callable[..., str]:
    """``draft`` (which takes the page's :class:`Converted` first) with its sentence's
    first word in the case the page writes it (:func:`_first_word_as_written`)."""

    @functools.wraps(draft)
    def drafted(converted: Converted, *args: Any, **kwargs: Any) -> str:
        return _first_word_as_written(draft(converted, *args, **kwargs), converted.markdown)

    return drafted


@_as_written
def draft_description(
    converted: Converted,
    title: str,
    parsed: list[prose.Block],
    *,
    siblings: Iterable[str] | AlikeSet = (),
    common_headings: frozenset[str] = frozenset(),
    shared: Mapping[str, int] | None = None,
) -> str:
    """One informative sentence about the document, at most about 200 characters.

    The first sentence that reads as prose; when it reads almost the same as a sibling's
    description, the next sentence of the same paragraph is tried, then the next
    paragraph's (only as far as the opening paragraphs: further in, a shared description
    is more honest than an off-topic one). A caller drafting a whole folder passes its
    siblings as one :class:`~kas_tui.text.alike.AlikeSet` it adds to, and the source's
    ``shared`` sentences (:func:`shared_sentences`: normalised, with the number of pages
    opening with each): those are passed over too, and when the page has no other, its
    shape says what it is (an mkdocstrings page: "API reference for ..."), else the one
    fewest pages share does (a page copied twice: its own words before the site's
    notice that the topic is not updated).
    """
    asked = questions_sentence(parsed, MAX_DESCRIPTION, common_headings)
    if asked:  # a FAQ: its questions say what it answers
        return asked
    releases = changelog_sentence(parsed)
    if releases:  # release notes: which releases, not one change of the newest
        return _finish(releases)
    command = command_sentence(converted.markdown, title, parsed)
    if command:  # a CLI command's page: its short summary and its usage
        return _finish(command)
    others = siblings if isinstance(siblings, AlikeSet) else AlikeSet(siblings)
    first = ""
    shared = shared or {}
    boilerplate: tuple[int, str] | None = None  # (pages sharing it, the sentence)
    labels = _reference_labels(converted.markdown)
    for n, group in enumerate(_candidates(converted, title, parsed)):
        for candidate in group:
            if _CONTINUING.match(candidate):  # "Or to web development in general?"
                continue  # the end of a sentence before it, no description
            sentence = _finish(without_preamble(_unbracketed(candidate, labels)))
            if not sentence or says_nothing(sentence, title) or norm(sentence) == norm(title):
                continue
            if norm(sentence) in shared:
                here = (shared[norm(sentence)], sentence)
                if boilerplate is None or here[0] < boilerplate[0]:  # the first of equals
                    boilerplate = here
                continue
            first = first or sentence
            if not others.reads_like(sentence):
                return _with_sections(sentence, title, parsed, common_headings)
        if first and n >= 2 or boilerplate and n + 1 >= _OPENING_GROUPS:
            break
    if first:
        return _with_sections(first, title, parsed, common_headings)
    shape = shape_sentence(converted, title, parsed, common_headings)
    if shape is None and boilerplate:  # no shape to tell: the source's sentence, then
        return _with_sections(boilerplate[1], title, parsed, common_headings)
    if boilerplate and names_only_shared_sections(converted, title, parsed, common_headings):
        # its shape would name its title and the site's common sections only: the
        # sentence it shares with the pages of one element in other places says what
        # it is, its title which of them ("Frame Element for CustomItem for Controls
        # for Configuration: defines how the data is displayed...")
        return _finish(f"{title}: {prose.lower_first(boilerplate[1], converted.markdown)}")
    return _finish(shape or opening_sentence(converted))


#: A sentence that goes on from the one before it ("New to Django? Or to web development
#: in general?"): half a thought, never what a page is about.
_CONTINUING = re.compile(r"^(?:Or|And|Nor|But)\b\s")


#: A sentence opening this many pages of one source or more is that source's
#: boilerplate: "See MouseEvent for the full list of properties and methods." on seven of
#: Textual's event pages, "Thanks for clicking the link that brought you to this page."
#: on 31 of Exchange 2013's health sets. It tells none of them apart.
SHARED_BY = 3
#: Candidate groups (paragraphs, first) of each page read for shared sentences: as far
#: as :func:`draft_description` looks past them for a sentence of the page's own (a
#: note that the topic is not updated, a forum's address, then the page's own words).
_OPENING_GROUPS = 6


def shared_sentences(pages: Iterable[tuple[Converted, list[prose.Block]]]) -> dict[str, int]:
    """The sentences (normalised) opening ``SHARED_BY`` or more of ``pages`` (each a
    page and its :func:`~kas_tui.text.prose.blocks`), with how many: what
    :func:`draft_description` passes over. Pages of one file name count once: the
    versions of a page (``powershellget-2.x/save-module.md`` and ``-3.x/``) share their
    sentences, in bundles of their own, and each copy's best sentence is still its own."""
    names: dict[str, set[str]] = defaultdict(set)
    for converted, parsed in pages:
        labels = _reference_labels(converted.markdown)
        seen: set[str] = set()
        for n, group in enumerate(_candidates(converted, "", parsed)):
            if n >= _OPENING_GROUPS:
                break
            seen.update(norm(_finish(without_preamble(_unbracketed(c, labels)))) for c in group)
        name = converted.source.name.casefold()
        for sentence in seen:
            names[sentence].add(name)
    return {s: len(n) for s, n in names.items() if s and len(n) >= SHARED_BY}


def _reference_labels(markdown: str) -> frozenset[str]:
    """The labels of the page's reference definitions (``[MkDocs]: https://...``), lower
    case: a ``[MkDocs]`` in its text is a link (a shortcut reference), shown as its words."""
    if "]:" not in markdown:
        return frozenset()
    return frozenset(m.group(1).lower() for m in _REF_DEFINITION.finditer(markdown))


def _unbracketed(text: str, labels: frozenset[str]) -> str:
    """``text`` with its shortcut reference links as their words ("on top of MkDocs",
    not "on top of [MkDocs]"); brackets no definition names stay ("[Preview]")."""
    if not labels or "[" not in text:
        return text
    return _SHORTCUT.sub(lambda m: m.group(1) if m.group(1).lower() in labels else m.group(0), text)


def _with_sections(
    sentence: str, title: str, parsed: list[prose.Block], common: frozenset[str]
) -> str:
    """The sentence naming the page's sections as far as room allows (see
    :mod:`kas_tui.text.section_topics`)."""
    return with_topics(sentence, section_topics(parsed, title, common), MAX_DESCRIPTION)


def _finish(text: str) -> str:
    text = " ".join(text.split()).strip(" -–—:;,")
    if not text:
        return ""
    text = prose.clip(text, MAX_DESCRIPTION - 1)
    if text[-1] not in ".!?…":
        text += "."
    return prose.sentence_start(text)


def _candidates(converted: Converted, title: str, parsed: list[prose.Block]) -> Iterator[list[str]]:
    """Groups of candidate sentences, best first: metadata, then paragraph by paragraph."""
    subject = converted.properties.get("subject", "")
    if len(prose.words(subject)) >= 4 and not _JUNK_TITLE.match(subject):
        yield [subject]
    for line in converted.markdown.split("\n", 16)[:15]:  # an EPUB's metadata lines
        match = re.match(r"\*\*Description:\*\*\s*(.+)", line)
        if match:
            yield [match.group(1)]
    seen = 0
    opening = _opening_paragraph(parsed)
    for kinds in (("paragraph",), ("item",)):
        for at, block in enumerate(parsed):
            if block.kind not in kinds:
                continue
            seen += 1
            if seen > 80:
                break
            found = _sentences(block.text, title)
            if not found and at == opening and _summary_line(block.text):
                found = [block.text.strip()]
            elif not found and at == opening and len(parsed) == at + 1:
                found = _lone_sentence(block.text)
            if found and block.kind == "paragraph" and found[-1].endswith(":"):
                found[-1] = _with_list(found[-1], parsed[at + 1 : at + 40])
            if found:
                yield found


def _with_list(text: str, after: list[prose.Block]) -> str:
    """A sentence that introduces a list ("... with support for:") ending with the
    list's items ("... with support for: JavaScript, JSX and Vue."): without them it
    stops mid-way. ``text`` as it was when no list follows."""
    items = []
    for block in after:
        if block.kind != "item":
            break
        item = block.text.strip().rstrip(".;,")
        words = item.split(" ", 2)
        if len(words) > 1 and words[0][1:].islower() and words[1].islower():
            item = item[0].lower() + item[1:]  # "support for custom errors"; "Angular" stays
        items.append(item)
    if not items:
        return text
    listed = ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]
    return f"{text} {listed}."


#: A bare address opening a paragraph (k3d's home: "https://k3d.io/" above its first
#: sentence): where the thing lives, no words of a description.
_LEADING_URL = re.compile(r"^(?:https?://|www\.)\S+\s+")


def _sentences(text: str, title: str) -> list[str]:
    text = _LEADING_URL.sub("", text)
    if _BOILERPLATE.match(text):
        return []
    return [s for s in prose.sentences(text)[:4] if _prose_like(s) and norm(s) != norm(title)]


#: A summary line's first word: a verb in the third person ("Displays", "Creates",
#: "Renders"), as reference pages and docstrings open.
_SUMMARY_VERB = re.compile(r"^[A-Z][a-z]{2,}(?:s|es)\b(?!')")
#: Words of that shape that are no verb opening a summary.
_NOT_VERBS = frozenset({"this", "these", "thus", "its", "perhaps", "yes", "news", "sometimes"})


def _opening_paragraph(parsed: list[prose.Block]) -> int | None:
    """Where the page's first paragraph is, when it opens the page: nothing but its
    title above it (no section heading, list or code)."""
    for at, block in enumerate(parsed):
        if block.kind == "paragraph":
            return at
        if block.kind != "heading" or block.level > 1:
            return None
    return None


def _summary_line(text: str) -> bool:
    """Whether a page's opening paragraph is one short sentence saying what the thing
    does, as reference pages open ("Displays a circular loading indicator.", "Creates
    an application instance."): a description, though shorter than prose needs."""
    text = " ".join(text.split())
    sentences = prose.sentences(text)
    if len(sentences) != 1 or not text.endswith(".") or _BOILERPLATE.match(text):
        return False
    found = _SUMMARY_VERB.match(text)
    tokens = prose.words(text)
    return (
        found is not None
        and found.group().lower() not in _NOT_VERBS
        and 3 <= len(tokens) < 6
        and prose.letter_count(text) > len(text) * 0.6
    )


_TRAILING_SYMBOLS = re.compile(r"(?<=[.!?])[^\w.!?]+$")


def _lone_sentence(text: str) -> list[str]:
    """The first sentence of a page's only paragraph, under nothing but its title
    ("Additional resources, external links, and more."): short of prose, but all the
    page says of itself; none when it is under three words or no sentence."""
    first = next(iter(prose.sentences(" ".join(text.split()))), "")
    first = _TRAILING_SYMBOLS.sub("", first)  # "... and more. ✈️": the emoji is no words
    if len(prose.words(first)) < 3 or not first.endswith((".", "!", "?")):
        return []
    return [first] if not _BOILERPLATE.match(first) else []


def _prose_like(sentence: str) -> bool:
    """Whether a sentence reads as prose: enough words, mostly lower-case, not a list."""
    if _BOILERPLATE.match(sentence):
        return False
    tokens = prose.words(sentence)
    if len(tokens) < 6:
        return False
    lower = sum(1 for t in tokens if t[:1].islower())
    if lower < len(tokens) * 0.4:
        return False
    if sentence.count(",") > len(tokens) / 3:
        return False  # a list of names or values
    letters = prose.letter_count(sentence)
    if letters < len(sentence) * 0.6:
        return False
    if sentence.rstrip()[-1:] in ".!?:":
        return True
    return len(tokens) >= 12 and lower >= len(tokens) * 0.6  # a heading-less line of prose


# --- tags ----------------------------------------------------------------------------------------


def draft_tags(converted: Converted, foreign: dict[str, Any]) -> list[str]:
    raw = converted.properties.get("keywords", "")
    keywords = foreign.get("keywords")
    if isinstance(keywords, list):
        raw = ", ".join(str(k) for k in keywords)
    elif isinstance(keywords, str):
        raw = keywords
    tags = []
    for part in re.split(r"[,;]", raw):
        tag = " ".join(part.split()).lower()
        if tag and len(tag) <= 40 and tag not in tags:
            tags.append(tag)
    return tags[:8]
