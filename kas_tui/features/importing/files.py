"""The files an import reads: which formats kas-tui converts, and typed or pasted paths.

Headless: the import wizard's file step and anything else choosing files to import use
these, so what a path names is decided in one place.
"""

from __future__ import annotations

import functools
import glob
import importlib.util
import os
import re
from pathlib import Path

from kas_tui.core.fileio import path_kind
from kas_tui.features.importing.convert import (
    ASCIIDOC_EXTS,
    CODE_EXTS,
    CONVERTERS,
    MARKDOWN_EXTS,
    RST_EXTS,
    TEXT_EXTS,
)

#: Extensions kas-tui converts (anything else is tried as text).
SUPPORTED = frozenset(
    MARKDOWN_EXTS | TEXT_EXTS | RST_EXTS | ASCIIDOC_EXTS | set(CODE_EXTS) | set(CONVERTERS)
)
#: The module MarkItDown's converter for an extension needs, when it is an optional
#: dependency (``pip install 'markitdown[outlook]'``): without it, the format is not
#: offered, rather than offered and then failed.
NEEDS = {
    ".pdf": "pdfminer",
    ".docx": "mammoth",
    ".pptx": "pptx",
    ".xlsx": "openpyxl",
    ".xls": "xlrd",
    ".msg": "olefile",
}
#: The formats, as the curator reads them, and the extensions each stands for.
_FORMATS = (
    ("PDF", (".pdf",)),
    ("Word .docx", (".docx",)),
    ("PowerPoint .pptx", (".pptx",)),
    ("Excel .xlsx", (".xlsx",)),
    ("Excel .xls", (".xls",)),
    ("HTML", (".html",)),
    ("EPUB", (".epub",)),
    ("CSV · TSV", (".csv", ".tsv")),
    ("notebooks .ipynb", (".ipynb",)),
    ("Outlook .msg", (".msg",)),
    ("Markdown · text · JSON YAML XML TOML", (".md",)),
)


@functools.cache
def installed(ext: str) -> bool:
    """Whether the converter of extension ``ext`` can run here (its optional dependency
    is installed; found without importing it)."""
    module = NEEDS.get(ext)
    return module is None or importlib.util.find_spec(module) is not None


def formats() -> str:
    """The formats this installation converts, as a sentence for the curator."""
    return " · ".join(name for name, exts in _FORMATS if all(installed(e) for e in exts))


_QUOTED = re.compile(r'"([^"]*)"|\'([^\']*)\'|([^,\n]+)')


def supported(path: Path) -> bool:
    """Whether ``path`` has an extension kas-tui converts here (see :data:`NEEDS`)."""
    ext = path.suffix.lower()
    return ext in SUPPORTED and installed(ext)


def files_in(folder: Path) -> list[Path]:
    """The files of ``folder`` (not below) kas-tui can convert, hidden ones left out."""
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name.casefold())
    except OSError:
        return []
    return [p for p in entries if p.is_file() and not p.name.startswith(".") and supported(p)]


def parse_paths(text: str, start: Path) -> tuple[list[Path], list[str]]:
    """The files named in ``text`` (comma or line separated), and what could not be found.

    Relative paths are read from ``start``; ``~`` is the home folder; quotes keep a comma
    in a name; a glob (``*.pdf``) names every file it matches; a folder names the files
    it holds that kas-tui can convert.
    """
    found: list[Path] = []
    problems: list[str] = []
    for match in _QUOTED.finditer(text):
        raw = next(g for g in match.groups() if g is not None).strip()
        if not raw:
            continue
        path = Path(os.path.expanduser(raw))
        if not path.is_absolute():
            path = start / path
        kind = path_kind(path)
        if kind is not None:
            problems.append(f"{raw}: a {kind}, not a regular file: never opened")
        elif path.is_file():
            found.append(path)
        elif path.is_dir():
            inside = files_in(path)
            found.extend(inside)
            if not inside:
                problems.append(f"{raw}: no file kas-tui can convert in this folder")
        elif glob.has_magic(raw):
            matches = sorted(Path(p) for p in glob.glob(str(path)) if Path(p).is_file())
            found.extend(matches)
            if not matches:
                problems.append(f"{raw}: matches no file")
        else:
            problems.append(f"{raw}: no such file")
    resolved = [Path(os.path.abspath(p)) for p in found]
    return list(dict.fromkeys(resolved)), problems
