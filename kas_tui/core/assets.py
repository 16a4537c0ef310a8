"""What an asset (a file of the package that is not a document) shows in the viewer.

Text assets (the CSV, YAML, JSON or text a document cites as a source) are shown as
written, in a fenced block named for its language so it is highlighted; a binary file,
one too large, one that cannot be read or one whose link leaves the package gets a
sentence saying so. Read only: nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from kas_tui.core.fileio import read_regular

#: Bytes of an asset shown at most (the rest is said to be left out).
MAX_BYTES = 256 * 1024
#: Fence languages by file suffix (Textual highlights these); others are plain text.
LANGUAGES = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".toml": "toml",
    ".xml": "xml",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".js": "javascript",
    ".py": "python",
    ".sh": "bash",
    ".sql": "sql",
    ".md": "markdown",
}


@dataclass(frozen=True)
class AssetView:
    path: str  # package-relative
    size: int
    text: str | None  # None: not shown (see ``reason``)
    language: str
    truncated: bool = False
    reason: str = ""


def read_asset(root: Path, path: str) -> AssetView:
    """Read the asset ``path`` (package-relative, POSIX) of the package at ``root``."""
    language = LANGUAGES.get(PurePosixPath(path).suffix.lower(), "")
    file = root / path
    try:
        if not file.resolve().is_relative_to(root.resolve()):
            return AssetView(path, 0, None, language, reason="it leaves the package")
        size = file.stat().st_size
        data = read_regular(file, limit=MAX_BYTES + 1)  # a pipe or device: never opened
    except OSError as exc:
        return AssetView(path, 0, None, language, reason=exc.strerror or str(exc))
    truncated = len(data) > MAX_BYTES
    data = data[:MAX_BYTES]
    if b"\0" in data[:8192]:
        return AssetView(path, size, None, language, reason="a binary file")
    text = data.decode("utf-8", errors="replace")
    if truncated:
        text = text.rsplit("\n", 1)[0] if "\n" in text else text
    return AssetView(path, size, text, language, truncated)


def asset_markdown(view: AssetView) -> str:
    """The viewer's Markdown: the name (as code: never escaped), size, and the text."""
    name = _code(view.path)
    size = f"{view.size:,} bytes"
    if view.text is None:
        return f"{name} · {size}\n\nAn asset, not shown: {view.reason}.\n"
    fence = "`" * max(3, _longest_run(view.text, "`") + 1)
    body = view.text if view.text.endswith("\n") or not view.text else view.text + "\n"
    note = (
        f"\n*The first {MAX_BYTES // 1024} KB are shown; the rest is left out.*\n"
        if view.truncated
        else ""
    )
    return f"{name} · {size} · an asset, read only\n\n{fence}{view.language}\n{body}{fence}\n{note}"


def _code(text: str) -> str:
    ticks = "`" * (_longest_run(text, "`") + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _longest_run(text: str, char: str) -> int:
    longest = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        longest = max(longest, run)
    return longest
