"""What a build reads from its source folder: every regular file, in a stable order.

Hidden files and folders are left out (but a wiki's ``.attachments``, a GitBook
space's ``.gitbook`` (its uploaded images), a VitePress site's
``.vitepress/config.*``, read for its sidebar, and a VuePress site's
``.vuepress/config.*``, read likewise, and ``.vuepress/public/``, the files it serves
from its root), and so are the
output folder, symlinked folders and an editor's or merge's leftover copies
(``page.md~``, ``page.md~master``, ``page.md.orig``: :func:`leftover_copy`); a named pipe, socket or device is never opened,
and a symlink leaving the source is never followed: each is a note naming the file,
never a silent skip. So is a folder that cannot be listed.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from kas_tui.core.fileio import path_kind
from kas_tui.core.store import os_reason
from kas_tui.features.importing.docfx_config import is_docfx_redirects
from kas_tui.features.importing.toc_eleventy import CONFIG_NAMES as ELEVENTY_CONFIGS
from kas_tui.features.importing.toc_mkdocs_pages import PAGES_FILE
from kas_tui.features.importing.toc_vitepress import CONFIG_NAMES as VITEPRESS_CONFIGS
from kas_tui.features.importing.toc_vuepress import VUEPRESS
from kas_tui.features.importing.toc_wiki import ATTACHMENTS, GITBOOK_CONFIG, ORDER
from kas_tui.text.wording import visible

#: The folder of a VitePress site's config.
VITEPRESS = ".vitepress"
#: The folder a GitBook space keeps its uploaded files (``assets/``) and reusable
#: blocks (``includes/``) in, which its pages show.
GITBOOK = ".gitbook"


def leftover_copy(name: str) -> bool:
    """Whether a file name is a leftover copy of another: an editor's backup
    (``page.md~``), a merge tool's (``page.md~master``, ``page.md.orig``, ``.rej``)."""
    stem, dot, ext = name.rpartition(".")
    return "~" in ext or (bool(dot) and ext.lower() in ("orig", "rej") and "." in stem)


#: What the build says of an empty file it leaves out, and of one of blank lines.
EMPTY = "an empty file, nothing to convert; skipped"
BLANK = "only blank lines, nothing to convert; skipped"
BOM = b"\xef\xbb\xbf"
#: Files up to this size are read to tell whether they hold only blank lines.
_BLANK_MAX = 4096


def _empty(path: Path) -> str | None:
    """Why ``path`` holds nothing to convert (:data:`EMPTY`, :data:`BLANK`), or ``None``."""
    try:
        size = path.stat().st_size
        if size == 0:
            return EMPTY
        if size > _BLANK_MAX:
            return None
        with path.open("rb") as file:  # a translation's "\n" (DokuWiki's onceexisted.txt)
            blank = not file.read(_BLANK_MAX).removeprefix(BOM).strip(b" \t\r\n\x0b\x0c")
        return BLANK if blank else None
    except OSError:
        return None  # the conversion says what is wrong with it


def walk_source(source: Path, out: Path, notes: list[str]) -> tuple[list[str], list[str]]:
    """The source-relative paths of ``source``'s files (``out`` left out), and of the
    files read but not built (an Azure DevOps wiki's ``.order`` files, a VitePress
    config); what was skipped goes to ``notes``."""
    found: list[str] = []
    orders: list[str] = []
    real_source = os.path.realpath(source)
    linked: dict[str, str] = {}  # a symlink to a file of the source -> that file

    def unlistable(exc: OSError) -> None:  # said, never skipped in silence
        rel = Path(exc.filename or source).relative_to(source).as_posix()
        notes.append(f"{rel}: cannot list the folder ({os_reason(exc)}); its files were not built")

    for folder, dirs, files in os.walk(source, onerror=unlistable):
        here = Path(folder)
        for site in (d for d in (VITEPRESS, VUEPRESS) if d in dirs):
            # a VitePress or VuePress site's config: read for its sidebar, not built
            with contextlib.suppress(OSError):
                orders += sorted(
                    (here / site / n).relative_to(source).as_posix()
                    for n in os.listdir(here / site)
                    if n.lower() in VITEPRESS_CONFIGS and (here / site / n).is_file()
                )
        if here.name == VUEPRESS and here != source:  # only its public/ files are the site's
            dirs[:] = ["public"] if "public" in dirs and not (here / "public").is_symlink() else []
            continue
        dirs[:] = sorted(
            d
            for d in dirs
            if (not d.startswith(".") or d in (ATTACHMENTS, GITBOOK, VUEPRESS))
            and os.path.abspath(here / d) != str(out)
            and not (here / d).is_symlink()
        )
        for name in sorted(files):
            if (
                name in (ORDER, PAGES_FILE)
                or (name == GITBOOK_CONFIG and here == source)
                or is_docfx_redirects(name)  # hidden, and a docs site's map of moved pages
                or (name.startswith(".") and name.lower() in ELEVENTY_CONFIGS)  # .eleventy.js
            ):
                orders.append((here / name).relative_to(source).as_posix())  # read, not built
            if name.startswith("."):
                continue
            path = here / name
            if leftover_copy(name):
                rel = visible(str(path.relative_to(source)))
                notes.append(f"{rel}: an editor's or merge's leftover copy of a file; skipped")
                continue
            kind = path_kind(path)
            if kind is not None:
                notes.append(
                    f"{visible(str(path.relative_to(source)))}: a {kind}, not a regular file: "
                    "never opened; skipped"
                )
                continue
            if path.is_symlink():
                real = os.path.realpath(path)
                if not real.startswith(real_source + os.sep) or not os.path.isfile(real):
                    notes.append(
                        f"{path.relative_to(source)}: a symlink leaving the source "
                        "folder (or dangling); skipped"
                    )
                    continue
                linked[path.relative_to(source).as_posix()] = Path(
                    os.path.relpath(real, real_source)
                ).as_posix()
            empty = _empty(path)
            if empty:  # a package's py.typed, a placeholder: nothing to convert
                notes.append(f"{visible(str(path.relative_to(source)))}: {empty}")
                continue
            found.append(path.relative_to(source).as_posix())
    walked = set(found)
    twice = [link for link in found if linked.get(link) in walked]  # README.md -> docs/index.md
    for link in twice:
        notes.append(f"{visible(link)}: a symlink to {visible(linked[link])}, built once there")
    gone = set(twice)
    return [f for f in found if f not in gone], orders
