"""Language tags as docs sites name their translations' folders (``fr``, ``zh-cn``,
``pt-BR``, ``zh-hant``, ``es_419``): BCP 47's shape, its language an ISO 639-1 code."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from kas_tui.text.lexical import STOPWORDS

#: ISO 639-1: every two-letter language code.
ISO_639_1 = frozenset(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv
    cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho
    hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku
    kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn
    no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm
    sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi
    vo wa wo xh yi yo za zh zu
    """.split()  # noqa: SIM905 (a table of codes reads as one)
)
#: ISO 15924 scripts a language tag names (``zh-Hant``, ``sr-Latn``): the ones sites
#: write; a four-letter word after a language code is otherwise no script ("no-semi").
_SCRIPT_CODES = """arab beng cyrl deva ethi geor grek gujr guru hang hans hant hebr hira jpan kana
    khmr knda kore laoo latn mlym mong mymr orya sinh taml telu thaa thai tibt"""
SCRIPTS = frozenset(_SCRIPT_CODES.split())
#: A language, then a script (``hant``), a region (``BR``, ``cn``) or an area (``419``).
_TAG = re.compile(r"([a-z]{2})(?:[-_]([a-z]{4}|[a-z]{2}|\d{3}))?", re.IGNORECASE)


def is_language_tag(name: str) -> bool:
    """Whether a folder's ``name`` is a language tag: ``fr``, ``zh-cn``, ``pt-BR``,
    ``zh-Hant``; not ``no-semi`` (a test's variant), whose "semi" is no script."""
    match = _TAG.fullmatch(name)
    if match is None or match.group(1).lower() not in ISO_639_1:
        return False
    sub = (match.group(2) or "").lower()
    return len(sub) != 4 or sub in SCRIPTS


def is_english(name: str) -> bool:
    """Whether a language tag names English (``en``, ``en-us``, ``en_GB``)."""
    return is_language_tag(name) and name[:2].lower() == "en"


#: Code, inline code and tags: words of no language (``from fastapi import FastAPI``).
_NOT_PROSE = re.compile(r"^(```|~~~).*?^\1|`[^`\n]*`|<[^>\n]*>", re.MULTILINE | re.DOTALL)
#: A page's frontmatter: a site's settings in English keys (``heroText:``, ``features:``).
_FRONTMATTER = re.compile(
    r"\A\ufeff?---[ \t]*\n.*?^(?:---|\.\.\.)[ \t]*$", re.MULTILINE | re.DOTALL
)


def _marks() -> str:
    """The combining marks of the scripts sites write in, and the joiners Persian
    writes inside words, as a regular expression's class ranges."""
    ranges, start = [], None
    spans = [(0x0300, 0x1DFF), (0x200C, 0x200D), (0x20D0, 0x20FF), (0x3099, 0x309A)]
    spans.append((0xFE00, 0xFE2F))
    for first, last in spans:
        for code in range(first, last + 2):
            mark = code <= last and (
                unicodedata.category(chr(code)).startswith("M") or 0x200C <= code <= 0x200D
            )
            if mark and start is None:
                start = code
            elif not mark and start is not None:
                ranges.append(f"{chr(start)}-{chr(code - 1)}")
                start = None
    return "".join(ranges)


#: What Python's ``\w`` leaves out of a word: combining marks, the vowel signs and
#: viramas of Indic scripts and Thai's and Arabic's points. Without them "প্লাগইন"
#: (Bengali, plugins) was the words "প", "ল" and "গইন". A class's ranges: ``[{MARKS}]``.
MARKS = _marks()
#: A letter of a word: a letter, or a mark on one.
LETTER = rf"(?:[^\W\d_]|[{MARKS}])"
_WORDS = re.compile(rf"{LETTER}+")
#: English prose is a sixth function words or more (FastAPI's tutorial pages 0.46-0.53,
#: Textual's widget pages 0.14-0.37, Azure CLI reference YAML 0.20); its Spanish, French,
#: German, Portuguese and Korean translations at most 0.063.
_ENGLISH_SHARE = 0.1
#: Fewer words than this tell no language (a page that only includes another).
_FEWEST_WORDS = 40


def reads_as_english(text: str) -> bool | None:
    """Whether ``text`` is written in English, told by its share of English function
    words (:data:`~kas_tui.text.lexical.STOPWORDS`) outside code and frontmatter;
    ``None`` when it holds too few words to tell."""
    prose = _NOT_PROSE.sub(" ", _FRONTMATTER.sub(" ", text[:8000], count=1))
    words = _WORDS.findall(prose.lower())[:600]
    if len(words) < _FEWEST_WORDS:
        return None
    return sum(w in STOPWORDS for w in words) >= _ENGLISH_SHARE * len(words)


#: The languages whose function words a folder's titles are weighed against when they
#: are not English: stop-words' lists for languages of the Latin, Greek and Cyrillic
#: scripts, whose words name bundles and topics as English ones do.
_OTHER_LANGUAGES = [
    "spanish",
    "french",
    "german",
    "portuguese",
    "italian",
    "dutch",
    "catalan",
    "danish",
    "norwegian",
    "swedish",
    "finnish",
    "polish",
    "czech",
    "slovak",
    "romanian",
    "hungarian",
    "turkish",
    "indonesian",
    "russian",
    "ukrainian",
    "bulgarian",
    "greek",
]
#: The share of the words that are a language's function words for titles to be in it
#: (English titles hold 0.2 to 0.3 of "the", "to", "a"...).
_FUNCTION_SHARE = 0.12
#: Fewer words than this in the titles tell no language.
_FEWEST_TITLE_WORDS = 20


@functools.cache
def _function_words(language: str) -> frozenset[str]:
    from stop_words import get_stop_words

    return frozenset(w.lower() for w in get_stop_words(language))


@functools.cache
def _languages_of() -> dict[str, tuple[str, ...]]:
    """Each function word of :data:`_OTHER_LANGUAGES` -> the languages it is one of."""
    index: dict[str, list[str]] = {}
    for language in _OTHER_LANGUAGES:
        for word in _function_words(language):
            index.setdefault(word, []).append(language)
    return {word: tuple(languages) for word, languages in index.items()}


def other_function_words(texts: Iterable[str]) -> frozenset[str]:
    """The function words of the language ``texts`` (a folder's titles) are written in,
    when it is not English (PostgreSQL's manual in German was grouped into bundles
    "Das", "Die", "Für" and "Und"): the language whose function words are the most of
    the words, a :data:`_FUNCTION_SHARE` at least and more than English's; empty for
    English, or for too few words to tell."""
    words = [w for text in texts for w in _WORDS.findall(text.lower())][:3000]
    if len(words) < _FEWEST_TITLE_WORDS:
        return frozenset()
    languages_of = _languages_of()
    found: dict[str, Counter[str]] = {}
    for w in words:  # one pass: each word's languages, not each language's words
        for language in languages_of.get(w, ()):
            found.setdefault(language, Counter())[w] += 1
    best, best_count = "", sum(w in STOPWORDS for w in words)
    for language in _OTHER_LANGUAGES:
        count = sum(found.get(language, {}).values())
        # a language's words, several of them: one alone is a name's ("az", Azure CLI's
        # command, is Hungarian's "the")
        several = count and len(found[language]) >= 3
        if several and count > best_count and 2 * found[language].most_common(1)[0][1] < count:
            best, best_count = language, count
    if not best or best_count < _FUNCTION_SHARE * len(words):
        return frozenset()
    return _function_words(best)
