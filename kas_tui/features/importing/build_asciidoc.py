"""The build's AsciiDoc pages, read with their site (:mod:`.asciidoc`): an Antora
component's attributes, resource IDs and page titles (:mod:`.antora`), or, outside
one, paths relative to each page within the source.

A page is converted here, in the builder's process (a few milliseconds a page), not in
the converter pool: what it includes, links and shows is read from the source. Its
includes (and the component's ``antora.yml``) are folded into its hash, so a changed
partial builds the pages showing it again; files only included by other pages of a
source that is no Antora component are no pages of their own. Problems go to the
build's notes by file and line; attribute references and cross-references naming
nothing are counted in one note each.
"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from kas_tui.core.fileio import read_regular
from kas_tui.core.store import os_reason
from kas_tui.features.importing.antora import AntoraSite, LooseSite
from kas_tui.features.importing.asciidoc import to_markdown
from kas_tui.features.importing.asciidoc_source import read_source
from kas_tui.features.importing.convert import (
    ASCIIDOC_EXTS,
    ConversionError,
    Result,
    asciidoc_converted,
    check_size,
    sha256_file,
    without_control_characters,
)
from kas_tui.features.importing.convert_model import Refused, decode_text, refuse_armor
from kas_tui.features.importing.pool import convert_files
from kas_tui.features.importing.toc_antora import component_of


class AsciidocMixin:
    """Mixed into the builder (its state is the builder's: ``source``, ``toc``,
    ``source_files``, ``limits``, ``workers``, ``result``, ``_read_source``)."""

    def _adoc_site(self) -> Any:
        site = self.__dict__.get("_adoc_site_made")
        if site is None:
            toc = self.toc
            component = None
            if toc is not None and toc.kind == "antora":
                component = component_of(toc.file, self._read_source, self.source_files)
            self._adoc_locked = component.locked if component is not None else frozenset()
            self._adoc_config = toc.file if component is not None and component.file else None
            files = _SourceFiles(self.source_files, self.source)
            site = (
                AntoraSite(component, files, self._read_source)
                if component is not None
                else LooseSite(files, self._read_source)
            )
            self._adoc_site_made = site
        return site

    def _adoc_outside(self) -> bool:
        """Whether the pages are a component's whose antora.yml the source does not hold."""
        site = self._adoc_site()
        return isinstance(site, AntoraSite) and site.component.file is None

    def _adoc_includes(self, documents: list[str], assets: list[str]) -> tuple[list, list]:
        """What each AsciiDoc page includes (for its hash); outside an Antora component,
        the files pages include are no pages (snippets, chapters of a book)."""
        pages = [d for d in documents if posixpath.splitext(d)[1].lower() in ASCIIDOC_EXTS]
        if not pages:
            return documents, assets
        site = self._adoc_site()
        found: dict[str, list[str]] = {}
        for rel in pages:
            text = self._read_source(rel)
            if text is None:
                continue
            attributes = site.attributes_for(rel)
            included = read_source(text, rel, site, attributes, self._adoc_locked).included
            found[rel] = [*([self._adoc_config] if self._adoc_config else []), *included]
        self.adoc_includes = found
        if isinstance(site, AntoraSite):
            return documents, assets
        named = {f for files in found.values() for f in files} & set(pages)
        return [d for d in documents if d not in named], sorted({*assets, *named})

    def _adoc_sha(self, rel: str) -> list[str]:
        """The hashes of the files the AsciiDoc page ``rel`` includes."""
        hashes = self.__dict__.setdefault("_adoc_sha_cache", {})
        out = []
        for target in getattr(self, "adoc_includes", {}).get(rel, ()):
            if target not in hashes:
                try:
                    hashes[target] = sha256_file(self.source / target)
                except OSError:
                    hashes[target] = "missing:" + target
            out.append(hashes[target])
        return out

    def _convert_all(self, paths: Sequence[Path]) -> Iterator[tuple[int, Result]]:
        """Every file of ``paths`` converted: the AsciiDoc pages here, with their site,
        the others by :func:`.pool.convert_files`."""
        adoc = [i for i, p in enumerate(paths) if p.suffix.lower() in ASCIIDOC_EXTS]
        if not adoc:
            yield from convert_files(paths, self.limits, workers=self.workers)
            return
        others = [i for i, p in enumerate(paths) if p.suffix.lower() not in ASCIIDOC_EXTS]
        for j, result in convert_files(
            [paths[i] for i in others], self.limits, workers=self.workers
        ):
            yield others[j], result
        missing: list[tuple[str, int, str]] = []
        unresolved: list[tuple[str, int, str]] = []
        for i in adoc:
            yield i, self._adoc_page(paths[i], missing, unresolved)
        self._adoc_notes(missing, unresolved)

    def _adoc_page(
        self,
        path: Path,
        missing: list[tuple[str, int, str]],
        unresolved: list[tuple[str, int, str]],
    ) -> Result:
        started = time.perf_counter()
        rel = path.relative_to(self.source).as_posix()
        site = self._adoc_site()
        too_large = check_size(path, self.limits)  # messages name the file: the build
        if too_large is not None:  # says where it is
            return too_large
        try:
            data = read_regular(path, listed=True)  # a named pipe is never waited on
            text, encoding = decode_text(path, data)  # NUL bytes: binary, refused
            refuse_armor(text)
        except OSError as exc:
            reason = os_reason(exc)
            return ConversionError(path, "unreadable", f"{path.name}: cannot be read ({reason})")
        except Refused as exc:
            return ConversionError(path, exc.reason, f"{path.name}: {exc.message}")
        page = to_markdown(text, rel, site, site.attributes_for(rel), self._adoc_locked)
        self.result.notes += [f"{p.file}:{p.line}: {p.message}" for p in page.problems]
        missing += page.missing
        unresolved += page.unresolved
        result = asciidoc_converted(path, page, encoding)
        without_control_characters(result)
        st = path.stat()
        result.sha256, result.size, result.mtime = sha256_file(path), st.st_size, st.st_mtime
        if len(result.markdown) > self.limits.max_output:
            return ConversionError(
                path,
                "too-large",
                f"{path.name}: the conversion gave {len(result.markdown):,} characters of Markdown, "
                f"over the {self.limits.max_output:,} limit",
            )
        result.seconds = time.perf_counter() - started
        return result

    def _adoc_notes(
        self, missing: list[tuple[str, int, str]], unresolved: list[tuple[str, int, str]]
    ) -> None:
        if missing:
            file, line, name = missing[0]
            more = (
                f" and {len(missing) - 1:,} more attribute references" if len(missing) > 1 else ""
            )
            self.result.notes.append(
                f"{file}:{line}: {{{name}}}{more} name{'' if more else 's'} no attribute the "
                "page or antora.yml defines: left as written; "
                + (
                    "the component's antora.yml, which sets them, is not in the source: build "
                    "the folder holding it"
                    if self._adoc_outside()
                    else "define it (in antora.yml's asciidoc: attributes:, or the page's header)"
                )
            )
        if unresolved:
            file, line, target = unresolved[0]
            more = (
                f" and {len(unresolved) - 1:,} more cross-references" if len(unresolved) > 1 else ""
            )
            self.result.notes.append(
                f"{file}:{line}: xref:{target}{more} name{'' if more else 's'} no page of the "
                "source (another component's, another version's, or a page that moved): shown "
                "as their text; fix the xref or build the source holding the page"
            )


class _SourceFiles(set):
    """The source's files, and the empty ones the walk passed over (an empty partial a
    page includes is no missing file): never a path leaving the source."""

    def __init__(self, files: set[str], source: Path) -> None:
        super().__init__(files)
        self.source = source

    def __contains__(self, rel: object) -> bool:
        if set.__contains__(self, rel):
            return True
        if not isinstance(rel, str) or rel.startswith(("/", "../")) or "/../" in rel:
            return False
        path = self.source / rel
        try:
            return path.is_file() and not path.is_symlink() and path.stat().st_size == 0
        except OSError:
            return False
