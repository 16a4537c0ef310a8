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
``id`` whose pages are its own is no translation: the pages decide, not the name. A
language folder whose pages sit at names of their own (Obsidian's help: ``en/Plugins/``,
``es/Complementos/``, ``ko/플러그인/``) is a translation when its pages read as another
language and the default language's as English.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection

from kas_tui.text.languages import is_english, is_language_tag, reads_as_english
from kas_tui.text.wording import counted

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
        default_english: bool | None = None
        for folder in sorted(tagged - {default}):
            own = _stems(pages, folder + "/")
            shared = len(own & stems)
            if shared and 2 * shared >= len(own):
                if default == parent and is_english(posixpath.basename(folder)):
                    continue  # the site's English beside its own files (policy-templates'
                    # windows/firefox.admx beside en-US/firefox.adml): never a translation
                # every page at one of the default's paths: a translation, though the
                # pages not yet translated read as English (hexo's th/ and zh-tw/)
                mirrors = shared == len(own) and shared >= _MIRRORED
                if read is None or mirrors or not _in_english(folder, default, pages, read):
                    found[folder] = default
                continue
            if read is None or is_english(posixpath.basename(folder)):
                continue
            # its pages at paths of their own (Obsidian's help names each language's
            # pages in that language: ko/플러그인/, de/Erweiterungen/): a translation when
            # its pages read as another language and the default's as English
            if default_english is None:
                default_english = _majority(_said(default, tagged - {default}, pages, read)) is True
            if default_english and _majority(_said(folder, (), pages, read)) is False:
                found[folder] = default
    return found


#: How many pages a language-named folder holds, each at one of the default's paths,
#: for it to be a translation whatever its pages read as.
_MIRRORED = 3
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

    def copied(page: str, text: str) -> bool:
        original = originals.get(posixpath.splitext(page[len(folder) + 1 :])[0])
        return original is not None and _copy_of(text, read(original) or "")

    return _majority(_said(folder, (), pages, read, copied)) is True


def _said(
    folder: str,
    exclude: Collection[str],
    pages: Collection[str],
    read: Read,
    copied: Callable[[str, str], bool] | None = None,
) -> list[bool]:
    """Of the first ``_SAMPLED`` pages in ``folder`` (``""`` the root; not in the
    ``exclude`` folders), those with words enough to tell: whether each reads as
    English (a ``copied`` one, a placeholder, does not)."""
    prefix = folder + "/" if folder else ""
    inside = sorted(
        p for p in pages if p.startswith(prefix) and not any(p.startswith(f + "/") for f in exclude)
    )
    said: list[bool] = []
    for page in inside[:_SAMPLED]:
        text = read(page) or ""
        verdict = False if copied is not None and copied(page, text) else reads_as_english(text)
        if verdict is not None:
            said.append(verdict)
    return said


def _majority(said: list[bool]) -> bool | None:
    """What most of ``said`` tells, when two pages at least tell and they are not
    split evenly; else ``None``."""
    if len(said) < _TOLD_BY or 2 * sum(said) == len(said):
        return None
    return 2 * sum(said) > len(said)


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


def translated_pages(pages: Collection[str], read: Read | None = None) -> dict[str, str]:
    """Page translated by its name (``install.fr.md`` beside ``install.md`` or
    ``install.en.md``, as Hugo and mkdocs-static-i18n name them; Fumadocs'
    ``api.cn.mdx``; a repository's ``README-zh.md`` or ``README_pt-BR.md``) -> the page it translates. With ``read``, a page so named that
    reads as English and is no copy of the other is a page of its own: Dendron names
    notes by their place in a hierarchy, and ``publish.config.ga.md`` is the Google
    Analytics settings beside ``publish.config.md``, not Irish."""
    have = set(pages)
    found: dict[str, str] = {}
    for page in pages:
        folder, name = posixpath.split(page)
        stem, ext = posixpath.splitext(name)
        base, dot, tag = stem.rpartition(".")
        if not dot and stem[:6].lower() == "readme" and stem[6:7] in ("-", "_"):
            base, dot, tag = stem[:6], stem[6], stem[7:]  # GitHub's README-zh.md, README_ja.md
        language = is_language_tag(tag) or tag.lower() in _COUNTRY_NAMES
        if not dot or not base or not language or is_english(tag):
            continue
        for other in (f"{base}{ext}", f"{base}.en{ext}"):
            original = posixpath.join(folder, other)
            if original in have:
                if read is None or not _own_english_page(page, original, read):
                    found[page] = original
                break
    return found


def _own_english_page(page: str, original: str, read: Read) -> bool:
    """Whether ``page``, named as a translation of ``original``, reads as English
    and copies no nine in ten of its lines (a placeholder not yet translated)."""
    text = read(page) or ""
    return reads_as_english(text) is True and not _copy_of(text, read(original) or "")


#: gettext's message catalogs (a Sphinx or Django project's ``locale/*/LC_MESSAGES/``):
#: the translated strings of a site, sources (``.po``, ``.pot``) and compiled (``.mo``).
CATALOGS = frozenset({".po", ".pot", ".mo"})


def without_translations(
    documents: list[str],
    assets: list[str],
    notes: list[str],
    read: Read | None = None,
    *,
    by_name: bool = True,
    listed: Collection[str] = (),
) -> tuple[list[str], list[str]]:
    """A build's files without its translations' (the same pages in other languages
    are no more knowledge; a package of one language is built from that language's
    folder alone) and gettext catalogs, each left out said in ``notes``. Without
    ``by_name``, a page's name never says its language (a Dendron note's dots are its
    place: ``publish.config.giscus.id.md`` is giscus' ``id`` setting), nor does the name of
    a page the site's TOC lists (``listed``: numpy's toctree lists ``basics.io``, "I/O
    with NumPy", which read as Ido)."""
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
    named = set(translated_pages(documents, read)) - set(listed) if by_name else set()
    if named:
        notes.append(
            f"{counted(len(named), 'page')} named by their language ({next(iter(named))}, "
            f"...) {'translates the page' if len(named) == 1 else 'translate the pages'} "
            "beside them; left out"
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
            f"{default or '.'}/: {counted(n, 'page')} in {', '.join(f + '/' for f in names)} "
            f"{'is its page' if n == 1 else 'are its pages'} in other languages "
            "(translations); left out: build one of those folders alone for a package in "
            "its language"
        )
    return (
        [d for d in documents if not d.startswith(inside)],
        [a for a in assets if not a.startswith(inside)],
    )
