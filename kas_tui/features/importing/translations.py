"""A docs site's translations: the folders that hold the same pages in other languages.

Sites keep each language's pages in a folder named by its language tag: Starlight and
Hugo beside the default language's pages (``docs/fr/start/prerequisites.mdx`` for
``docs/start/prerequisites.mdx``), MkDocs sites such as FastAPI's one folder per
language (``docs/en/``, ``docs/es/``, ...). A folder is a translation when its name
is a language tag (:func:`kas_tui.text.languages.is_language_tag`) and at least half
of its pages, and one at least, are pages of the default language's at the same paths
(their extensions aside). The default language's pages are those its parent holds
outside such folders, or an English folder's when that holds more (folders named by
country codes, "de", "fr", "it", with no "en" and nothing else beside them, translate
nothing). A page named by its language beside the page it translates (``install.fr.md``
beside ``install.md``) is one too (:func:`translated_pages`). A folder named ``it`` or
``id`` whose pages are its own is no translation: the pages decide, not the name.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection

from kas_tui.text.languages import is_english, is_language_tag, reads_as_english

Read = Callable[[str], "str | None"]


def translations(pages: Collection[str], read: Read | None = None) -> dict[str, str]:
    """Folder of a translation -> the folder of the pages it translates (``""`` the
    root), for the source-relative ``pages``; with ``read``, a folder whose pages read
    as English is none (:func:`_in_english`)."""
    languages: dict[str, list[str]] = {}  # parent -> its language-tag folders
    for page in pages:
        parts = page.split("/")[:-1]
        for depth, name in enumerate(parts):
            if is_language_tag(name):
                parent = "/".join(parts[:depth])
                folders = languages.setdefault(parent, [])
                if name not in folders:
                    folders.append(name)
                break  # a language folder's own sub-folders are its pages'
    found: dict[str, str] = {}
    for parent, names in languages.items():
        prefix = parent + "/" if parent else ""
        tagged = {posixpath.join(parent, n) for n in names}
        # the default language: the parent's own pages, or an English folder's, the
        # more of them (FastAPI's docs/ holds one page beside en/, es/, ...)
        choices = {parent: _stems(pages, prefix, exclude=tagged)}
        english = [f for f in sorted(tagged) if is_english(posixpath.basename(f))]
        choices.update({f: _stems(pages, f + "/") for f in english})
        default = max(choices, key=lambda f: (len(choices[f]), f == parent))
        stems = choices[default]
        if not stems:
            continue
        for folder in sorted(tagged - {default}):
            own = _stems(pages, folder + "/")
            shared = len(own & stems)
            if not shared or 2 * shared < len(own):
                continue
            if read is None or not _in_english(folder, default, pages, read):
                found[folder] = default
    return found


#: How many of a folder's pages are read to tell its language, and how many of those
#: must have words enough to tell it (one page may be a copy left untranslated).
_SAMPLED = 5
_TOLD_BY = 2


def _in_english(folder: str, default: str, pages: Collection[str], read: Read) -> bool:
    """Whether most of the pages in ``folder`` (named by a language other than English)
    that have words enough to tell, two at least, are in English, and are no copies of
    the ``default`` folder's pages at their paths (a translation tool's placeholders for
    pages not yet translated): then the name is a word of its own. The Azure CLI
    reference names the Video Indexer's commands ``latest/vi/`` (``camera.yml`` and
    ``extension.yml``, another group than ``latest/extension.yml``), not Vietnamese."""
    if is_english(posixpath.basename(folder)):
        return False
    prefix = default + "/" if default else ""
    originals = {posixpath.splitext(p[len(prefix) :])[0]: p for p in pages if p.startswith(prefix)}
    said: list[bool | None] = []
    for page in sorted(p for p in pages if p.startswith(folder + "/"))[:_SAMPLED]:
        text = read(page) or ""
        original = originals.get(posixpath.splitext(page[len(folder) + 1 :])[0])
        copied = original is not None and _copy_of(text, read(original) or "")
        said.append(False if copied else reads_as_english(text))
    told = [s for s in said if s is not None]
    return len(told) >= _TOLD_BY and 2 * sum(told) > len(told)


def _copy_of(text: str, original: str) -> bool:
    """Whether ``text`` is ``original``'s lines, nine in ten of them or more (two
    command groups of the Azure CLI reference share half their lines: their YAML)."""
    mine = {line.strip() for line in text.splitlines() if line.strip()}
    theirs = {line.strip() for line in original.splitlines() if line.strip()}
    return bool(mine) and 10 * len(mine & theirs) >= 9 * len(mine)


def _stems(pages: Collection[str], prefix: str, exclude: Collection[str] = ()) -> set[str]:
    """The paths below ``prefix`` of the ``pages`` there (not in ``exclude``'s
    folders), without their extensions."""
    out = set()
    for page in pages:
        if page.startswith(prefix) and not any(page.startswith(f + "/") for f in exclude):
            out.add(posixpath.splitext(page[len(prefix) :])[0])
    return out


#: Country codes sites name a language by beside a page: ``api.cn.mdx`` (Chinese, as
#: Fumadocs' and Nextra's own sites write it), only ever beside the page it translates.
_COUNTRY_NAMES = frozenset({"cn"})


def translated_pages(pages: Collection[str]) -> dict[str, str]:
    """Page translated by its name (``install.fr.md`` beside ``install.md`` or
    ``install.en.md``, as Hugo and mkdocs-static-i18n name them; Fumadocs'
    ``api.cn.mdx``) -> the page it translates."""
    have = set(pages)
    found: dict[str, str] = {}
    for page in pages:
        folder, name = posixpath.split(page)
        stem, ext = posixpath.splitext(name)
        base, dot, tag = stem.rpartition(".")
        language = is_language_tag(tag) or tag.lower() in _COUNTRY_NAMES
        if not dot or not base or not language or is_english(tag):
            continue
        for other in (f"{base}{ext}", f"{base}.en{ext}"):
            original = posixpath.join(folder, other)
            if original in have:
                found[page] = original
                break
    return found


#: gettext's message catalogs (a Sphinx or Django project's ``locale/*/LC_MESSAGES/``):
#: the translated strings of a site, sources (``.po``, ``.pot``) and compiled (``.mo``).
CATALOGS = frozenset({".po", ".pot", ".mo"})


def without_translations(
    documents: list[str], assets: list[str], notes: list[str], read: Read | None = None
) -> tuple[list[str], list[str]]:
    """A build's files without its translations' (the same pages in other languages
    are no more knowledge; a package of one language is built from that language's
    folder alone) and gettext catalogs, each left out said in ``notes``."""
    catalogs = [f for f in [*documents, *assets] if posixpath.splitext(f)[1].lower() in CATALOGS]
    if catalogs:
        notes.append(
            f"{len(catalogs):,} gettext catalogs ({catalogs[0]}, ...) hold the site's "
            "strings in other languages, no pages of its own; left out"
        )
        left_out = set(catalogs)
        documents = [d for d in documents if d not in left_out]
        assets = [a for a in assets if a not in left_out]
    found = translations(documents, read)
    named = translated_pages(documents)
    if named:
        notes.append(
            f"{len(named):,} pages named by their language ({next(iter(named))}, ...) "
            "translate the pages beside them; left out"
        )
        documents = [d for d in documents if d not in named]
    if not found:
        return documents, assets
    inside = tuple(f + "/" for f in found)
    left = [d for d in documents if d.startswith(inside)]
    for default in sorted(set(found.values())):
        names = sorted(f for f, d in found.items() if d == default)
        n = sum(1 for d in left if d.startswith(tuple(f + "/" for f in names)))
        notes.append(
            f"{default or '.'}/: {n:,} pages in {', '.join(f + '/' for f in names)} are "
            "its pages in other languages (translations); left out: build one of those "
            "folders alone for a package in its language"
        )
    return (
        [d for d in documents if not d.startswith(inside)],
        [a for a in assets if not a.startswith(inside)],
    )
