"""File and folder names for imported documents: lowercase ASCII slugs, unique in a folder.

``Refund Policy (2026).PDF`` becomes ``refund-policy-2026``; a name in another script is
spelled in Latin letters (``플러그인`` becomes ``peulleogeuin``, ``Настройка`` becomes
``nastroyka``: AnyAscii's table, one character at a time); names that are reserved in a
package (``index``, ``log``, and ``skill`` at the root, which would collide with
``SKILL.md`` on a case-insensitive file system) get a suffix, and so does a name already
taken in the folder (``-2``, ``-3``, ...). Comparison ignores case, so two files never
differ only by case.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

from anyascii import anyascii

#: Stems a document may not take (they are the package's own files).
RESERVED = frozenset({"index", "log"})
#: Stems a document may not take at the package root.
RESERVED_AT_ROOT = RESERVED | {"skill"}
#: Names no file may have on Windows, whatever its extension (``con.md``, ``aux.png``):
#: a slug that is one gets a suffix, and ``check`` reports a file named so (OKF130).
WINDOWS_RESERVED = re.compile(r"(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\..*)?", re.I)
#: Longest slug written (file systems allow more; links and listings read better short).
MAX_SLUG = 80

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_LATIN_SPELLING: dict[str, str] = {}


def _in_latin(char: str) -> str:
    """One character of a name as ASCII: its accents folded (``é`` -> ``e``, a
    full-width ``Ａ`` -> ``A``); a letter, mark or digit of another script (or a Latin
    letter with no accent to fold: ``ß``, ``ø``) spelled in Latin letters (``플`` ->
    ``Peul``, ``я`` -> ``ya``, ``ß`` -> ``ss``) without its signs (Arabic's ain, a
    backtick); anything else (a curly apostrophe, a dash, an emoji) is dropped, as it
    was before other scripts were spelled."""
    spelled = _LATIN_SPELLING.get(char)
    if spelled is None:
        spelled = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
        if not spelled and unicodedata.category(char)[0] in "LMN":
            spelled = "".join(c for c in anyascii(char) if c.isalnum())
        _LATIN_SPELLING[char] = spelled
    return spelled


def slugify(text: str, *, fallback: str = "document", max_len: int = MAX_SLUG) -> str:
    """``text`` as a lowercase slug of ASCII letters, digits and single hyphens.

    Accents are folded (``Café`` -> ``cafe``) and other scripts spelled in Latin letters
    (``Настройка сервера`` -> ``nastroyka-servera``, ``日本語`` -> ``ribenyu``); other
    characters become hyphens. A name that keeps nothing (``🚀``) becomes ``fallback``.
    Long names are cut at a hyphen.
    """
    if text.isascii():
        folded = text
    else:
        folded = "".join(
            c if c.isascii() else _in_latin(c) for c in unicodedata.normalize("NFC", text)
        )
    slug = _NON_ALNUM.sub("-", folded.lower()).strip("-")
    if len(slug) > max_len:
        cut = slug[:max_len]
        slug = cut.rsplit("-", 1)[0] if "-" in cut[max_len // 2 :] else cut
        slug = slug.strip("-")
    return slug or fallback


def slugify_middle_out(text: str, *, max_len: int = MAX_SLUG) -> str | None:
    """``text`` as a slug that keeps its first and last words when it is too long,
    leaving words out of its middle (``selectionsetname-element-for-...-wideentry-format``
    tells its page from ``...-listentry-format``, which :func:`slugify` cuts alike);
    ``None`` when :func:`slugify` cuts nothing."""
    slug = slugify(text, max_len=10 * max_len)
    if len(slug) <= max_len or "-" not in slug:
        return None
    words = slug.split("-")
    head: list[str] = []
    tail: list[str] = []
    first, last = 0, len(words) - 1
    while first <= last:  # a word from the shorter end, while the whole stays in max_len
        front = sum(map(len, head)) <= sum(map(len, tail))
        word = words[first] if front else words[last]
        if len("-".join([*head, word, *tail])) > max_len:
            break
        if front:
            head.append(word)
            first += 1
        else:
            tail.insert(0, word)
            last -= 1
    return "-".join([*head, *tail])


class TakenNames:
    """The names taken in one folder, case ignored, as :func:`unique_slug` asks them: a
    build naming thousands of pages in one folder keeps one and adds to it, instead of
    handing over a set whose every name is lower-cased again for each page."""

    __slots__ = ("_lower",)

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._lower = {name.lower() for name in names}

    def add(self, name: str) -> None:
        self._lower.add(name.lower())

    def update(self, names: Iterable[str]) -> None:
        self._lower.update(name.lower() for name in names)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._lower

    def __iter__(self) -> Iterator[str]:
        return iter(self._lower)

    def __len__(self) -> int:
        return len(self._lower)


def unique_slug(
    base: str, taken: Iterable[str], *, at_root: bool = False, alternatives: Iterable[str] = ()
) -> str:
    """``base``, or ``base-2``, ``base-3``... : the first not in ``taken`` (case ignored).

    ``taken`` holds the stems (file names without ``.md``) and folder names already used
    in the folder (a :class:`TakenNames` when many names are given one by one).
    Reserved stems (the package's own files, and names Windows refuses) are never
    returned. ``alternatives``: other names the thing goes by (a page's title, its
    folder's name and its own), tried in order when ``base`` is taken, before a number
    (read lazily: a name that is free never asks for them).
    """
    used = taken if isinstance(taken, TakenNames) else TakenNames(taken)
    reserved = RESERVED_AT_ROOT if at_root else RESERVED

    def unusable(name: str) -> bool:
        return name in reserved or WINDOWS_RESERVED.fullmatch(name) is not None

    if not unusable(base) and base not in used:
        return base
    stem = f"{base}-page" if unusable(base) else base
    if stem not in used:
        return stem
    for other in alternatives:
        if other and not unusable(other) and other not in used:
            return other
    n = 2
    while f"{stem}-{n}" in used:
        n += 1
    return f"{stem}-{n}"


def names_in(folder: Path) -> set[str]:
    """The names taken in ``folder``: file stems (``.md`` dropped) and other entries."""
    try:
        return {
            (entry.name[:-3] if entry.name.lower().endswith(".md") else entry.name)
            for entry in os.scandir(folder)
        }
    except OSError:
        return set()


def parse_folder(text: str) -> tuple[str | None, str | None]:
    """A new bundle typed as its folder from the package root (``billing/disputes``):
    the path (``""`` when none is typed), or the problem."""
    path = text.strip().strip("/")
    if not path:
        return "", None
    parts = path.split("/")
    for part in parts:
        if slugify(part, fallback="") != part:
            hint = slugify(part, fallback="")
            return None, f"{part!r} is not a folder name" + (f"; as in {hint}" if hint else "")
    return "/".join(parts), None


def parse_file_name(text: str) -> tuple[str | None, str | None]:
    """A typed file name as the document's slug (``.md`` is optional), or the problem."""
    stem = text.strip().removesuffix(".md")
    if not stem:
        return None, "required: the document's file name"
    if slugify(stem) != stem:
        return None, f"lower-case letters, digits and single hyphens, as in {slugify(stem)}"
    if stem in RESERVED:
        return None, f"{stem}.md is one of the package's own files"
    return stem, None


def name_problem(root: Path, bundle: str, slug: str, planned: Iterable[str]) -> str | None:
    """Why ``slug`` cannot name a new document of ``bundle`` (a folder of the package at
    ``root``), or ``None`` when it is free; ``planned``: the names the import's other new
    documents in that bundle take."""
    where = f"{bundle}/" if bundle else "the package root"
    if not bundle and slug in RESERVED_AT_ROOT:
        return f"{slug}.md would clash with SKILL.md at the package root"
    if slug.lower() in {name.lower() for name in names_in(root / bundle)}:
        return f"{slug} is taken in {where}"
    if slug.lower() in {name.lower() for name in planned}:
        return f"another document of this import is named {slug}.md"
    return None


#: A name's number prefix, which orders it among its siblings and names nothing
#: (svelte's ``01-introduction/``, ``03-template-syntax/02-if.md``): two digits or more,
#: or one led by a zero, then a separator, before a name (``2-factor-auth`` and
#: ``2024-05-release`` keep theirs).
_ORDER_PREFIX = re.compile(r"^(?:0\d*|\d{2,})[-_.]\s*(?=[^\W\d])")


def without_order_prefix(name: str) -> str:
    """``name`` without the number prefix that orders it (:data:`_ORDER_PREFIX`)."""
    return _ORDER_PREFIX.sub("", name) or name


def order_prefix(name: str) -> int | None:
    """The number ``name``'s order prefix gives it (``03-template-syntax``: 3), or
    ``None`` without one."""
    found = _ORDER_PREFIX.match(name)
    return int(re.match(r"\d+", name).group()) if found else None  # type: ignore[union-attr]
