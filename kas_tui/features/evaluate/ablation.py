"""The package as an agent would see it with one layer taken away.

An ablation measures what a layer is worth: the same questions, the same navigator,
the package served without that layer. Nothing on disk changes; an
:class:`AblatedSandbox` serves the tools' calls from a transformed view:

- ``descriptions``: every ``index.md`` entry keeps its linked title and loses its
  description (``* [Refund policy](refund-policy.md)``).
- ``frontmatter``: documents are served without their YAML frontmatter, so ``peek``
  finds none and ``readfile`` returns the body alone.
- ``indexes``: the index hierarchy is gone: no ``index.md`` below the root, and the
  root ``index.md`` is one flat listing of every document (title and description, by
  path), as a package without navigation layer would offer.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace
from typing import TYPE_CHECKING

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.index import escape_title, format_target, parse_index
from kas_tui.features.agent.sandbox import FILE, MISSING, Sandbox
from kas_tui.features.agent.step import role_of

if TYPE_CHECKING:
    from kas_tui.core.package import Package

DESCRIPTIONS = "descriptions"
FRONTMATTER = "frontmatter"
INDEXES = "indexes"
LAYERS = (DESCRIPTIONS, FRONTMATTER, INDEXES)

#: What each ablation takes away, for reports.
WHAT = {
    DESCRIPTIONS: "index entries with titles only",
    FRONTMATTER: "documents without frontmatter (peek finds none)",
    INDEXES: "no index hierarchy: one flat listing of every document at the root",
}


class AblatedSandbox(Sandbox):
    """A :class:`Sandbox` serving ``package`` without ``layer`` (one of :data:`LAYERS`)."""

    def __init__(self, package: Package, layer: str, *, location: str | None = None) -> None:
        if layer not in LAYERS:
            raise ValueError(f"unknown layer {layer!r}; one of {', '.join(LAYERS)}")
        super().__init__(package.root, location=location)
        self.layer = layer
        self._flat = flat_index(package) if layer == INDEXES else ""

    def kind_of(self, path: str) -> str:
        if self.layer == INDEXES and _is_index(path):
            return FILE if path == "index.md" else MISSING
        return super().kind_of(path)

    def listdir(self, path: str) -> list[str]:
        names = super().listdir(path)
        if self.layer == INDEXES:
            names = [n for n in names if n != "index.md"]
            if not path:
                names = sorted([*names, "index.md"], key=lambda n: n.rstrip("/"))
        return names

    def read_text(self, path: str) -> str:
        if self.layer == INDEXES and path == "index.md":
            return self._flat
        text = super().read_text(path)
        if self.layer == DESCRIPTIONS and _is_index(path):
            return without_descriptions(text)
        if self.layer == FRONTMATTER and role_of(path) == "document":
            return without_frontmatter(text)
        return text


def _is_index(path: str) -> bool:
    return posixpath.basename(path) == "index.md"


def without_descriptions(text: str) -> str:
    """``index.md`` text with every entry's description (and its separator) removed."""
    index = parse_index(text)
    if not index.entries:
        return text
    index.entries = [replace(e, sep="", description="") for e in index.entries]
    return index.render()


def without_frontmatter(text: str) -> str:
    """A document's text without its frontmatter block (unchanged when it has none)."""
    try:
        block = fm.find_block(text)
    except FormatError:
        return text
    return text if block is None else text[block.end :]


def flat_index(package: Package) -> str:
    """One root index listing every document of ``package`` by path."""
    lines = [f"# {package.name}", ""]
    for path in sorted(package.documents):
        doc = package.documents[path]
        title = escape_title(doc.title or posixpath.basename(path))
        description = " ".join(doc.description.split())
        sep = " - " if description else ""
        lines.append(f"* [{title}]({format_target(path)}){sep}{description}")
    return "\n".join(lines) + "\n"
