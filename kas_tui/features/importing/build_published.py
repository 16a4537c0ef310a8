"""What of a source its docs site publishes: the files outside the folder the site
builds its pages from are left out (its code, tests, README), but for what its pages
include and the images the site serves as they are from beside its config; and the
extensions of files a build keeps as assets, never converts (:data:`ASSET_EXTS`)."""

from __future__ import annotations

import posixpath
from pathlib import Path

from kas_tui.features.importing.mdx_components import alias_folders, path_aliases
from kas_tui.features.importing.source_meta import is_furniture
from kas_tui.features.importing.toc_formats import SERVED_AS_IS

ASSET_EXTS = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".bmp", ".ico", ".avif"}
    | {".tif", ".tiff", ".heic", ".heif", ".jxl", ".psd", ".eps"}  # images no page converts
    | {".mp4", ".webm", ".mov", ".m4v", ".ogv", ".avi", ".mkv"}  # videos a page shows
    # sounds a page plays (Obsidian's ![[demo.ogg]]) that no converter reads; MarkItDown
    # transcribes .mp3, .wav and .m4a, so those are converted when it can
    | {".ogg", ".oga", ".opus", ".flac"}
    | {".woff", ".woff2", ".ttf", ".otf", ".eot"}  # a site theme's fonts
    | {".drawio", ".dio", ".excalidraw"}  # a figure's source, not prose
    | {".graffle", ".sketch", ".fig", ".xd", ".ai", ".afdesign", ".epgz", ".pencil"}
    # binary data sets a book's code reads (r4ds' heights.RDS, students.feather)
    | {".rds", ".rda", ".rdata", ".feather", ".parquet", ".arrow", ".sav", ".dta", ".h5"}
    | {".jinja", ".jinja2", ".j2", ".njk", ".liquid"}  # a theme's templates
)


#: How an image file opens, whatever its name: PNG, JPEG, GIF, WebP.
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")


def image_without_extension(path: Path) -> bool:
    """Whether ``path``, a file named without an extension, is an image by its first
    bytes: a Joplin export keeps its notes' images as ``_resources/1619864916511``
    (225 of one export failed as documents, their images lost)."""
    if path.suffix:
        return False
    try:
        with path.open("rb") as file:
            head = file.read(12)
    except OSError:
        return False
    return head.startswith(_IMAGE_MAGIC) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


class PublishedMixin:
    """The builder's leaving out of what its site does not publish (its state is the
    builder's: ``toc``, ``includes_of``, ``source_files``, ``result``, ``_read_source``)."""

    def _without_unpublished(
        self, documents: list[str], assets: list[str], walked: int
    ) -> tuple[list[str], list[str]]:
        """``documents`` and ``assets`` without the files outside the site's docs folder
        (one note says how many), the walk's first ``walked`` notes about them dropped."""
        outside = set(self.toc.outside_docs([*documents, *assets])) if self.toc else set()
        pages = set(documents)
        outside = {p for p in outside if p in pages or not is_furniture(p)}  # a LICENSE stays
        if outside:  # pages (and files) the site does not publish
            # what a published page includes stays (a snippet beside the repository's
            # README); what only the pages left out include goes with them (Sphinx's test
            # projects: tests/roots/test-root/tabs.inc)
            todo = [
                t for page, found in self.includes_of.items() if page not in outside for t in found
            ]
            shown_by: set[str] = set()
            while todo:  # and what those include, in turn
                target = todo.pop()
                if target not in shown_by:
                    shown_by.add(target)
                    todo += self.includes_of.get(target, ())
            left = outside - shown_by
            # what the site serves as it is from beside its config (Docusaurus' static/,
            # public/): images its pages show, kept as assets
            home = posixpath.dirname(self.toc.file)
            served = tuple(posixpath.join(home, d) + "/" for d in SERVED_AS_IS)
            # and the images an import alias of the site points to (Astro's @assets/)
            aliased = alias_folders(
                path_aliases(self.source_files, self._read_source, site=home), home
            )
            shown = {
                p
                for p in left
                if p.startswith(served)
                or (p.startswith(aliased) and Path(p).suffix.lower() in ASSET_EXTS)
            }
            left -= shown
            documents, assets = (
                [d for d in documents if d not in shown],
                [*assets, *sorted(shown & set(documents))],
            )
            if left:
                self.result.notes.append(self.toc.outside_note(len(left)))
            documents, assets = (
                [d for d in documents if d not in left],
                [a for a in assets if a not in left],
            )
            # what the walk said of files outside the docs (an empty test fixture) is moot
            notes = self.result.notes
            said = [n.split(": ", 1)[0].rsplit(":", 1)[0] for n in notes[:walked]]
            moot = set(self.toc.outside_docs(p for p in said if "/" in p))
            kept = [n for n, p in zip(notes[:walked], said, strict=True) if p not in moot]
            self.result.notes = kept + notes[walked:]
        return documents, assets
