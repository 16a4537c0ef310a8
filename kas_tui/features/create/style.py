"""The house style of a package's frontmatter, so a new document looks like its siblings.

Two things are learnt from the documents already there: the **order** of the keys
(``type, title, description, tags, generated, status`` in one package, ``status`` before
``generated`` in another), by a pairwise vote over every document's keys; and how
**lists and mappings** are written (``tags: [a, b]`` or a block list, ``generated:
{ by: x, at: y }`` or two indented lines), by a vote over the frontmatter text of the
bundle's documents first, then the package's, a few dozen files at most. A package with
no documents gets the order the import drafts write (:mod:`kas_tui.features.importing.draft`) and
block style.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import yaml_patch
from kas_tui.core.okf.errors import FormatError

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.records import Document

#: The order of a new document's keys when the package has no documents to learn from:
#: the order the import's drafts are written in (``importing.draft._ordered``).
DEFAULT_ORDER = ("type", "title", "description", "tags", "status", "generated", "sources")
#: How many documents' keys the order is learnt from, and how many files are read to
#: learn how lists and mappings are written.
ORDER_SAMPLE = 2_000
TEXT_SAMPLE = 40


@dataclass(frozen=True)
class HouseStyle:
    """How a new document's frontmatter is written in this package."""

    order: tuple[str, ...] = DEFAULT_ORDER
    flow: frozenset[str] = frozenset()  # keys whose list or mapping is written on one line
    padded: frozenset[str] = frozenset()  # of those, written with inner spaces: ``{ a: 1 }``
    indent_lists: bool = True  # block lists indented under their key

    def ordered(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` in this order (keys the order does not know keep theirs, at the end)."""
        known = [k for k in self.order if k in data]
        return {k: data[k] for k in [*known, *(k for k in data if k not in self.order)]}

    def render(self, data: dict[str, Any]) -> str:
        """The YAML lines of a frontmatter block holding ``data``, in this style."""
        return yaml_patch.render_mapping(
            self.ordered(data), flow=self.flow, padded=self.padded, indent_lists=self.indent_lists
        )


def house_style(pkg: Package, bundle: str = "") -> HouseStyle:
    """The style of ``pkg``'s frontmatter, the documents of ``bundle`` weighing first."""
    nearest = _nearest(pkg, bundle)
    order = key_order((d.meta for d in itertools.islice(nearest, ORDER_SAMPLE)), DEFAULT_ORDER)
    flow: Counter[str] = Counter()
    block: Counter[str] = Counter()
    padded: Counter[str] = Counter()
    indent: Counter[bool] = Counter()
    for text in _frontmatter_texts(pkg, _nearest(pkg, bundle)):
        found = yaml_patch.collection_style(text)
        flow.update(found.flow)
        padded.update(found.padded)
        block.update(found.block)
        if found.indent_lists is not None:
            indent[found.indent_lists] += 1
    keys = set(flow) | set(block)
    return HouseStyle(
        order=order,
        flow=frozenset(k for k in keys if flow[k] > block[k]),
        padded=frozenset(k for k in flow if padded[k] * 2 > flow[k]),
        indent_lists=indent[False] <= indent[True],
    )


def key_order(metas: Iterable[dict[str, Any]], default: Sequence[str]) -> tuple[str, ...]:
    """``default``'s keys in the order most documents put them (pairwise majority; a
    tie, or a pair no document holds both of, keeps ``default``'s order)."""
    wanted = set(default)
    before: Counter[tuple[str, str]] = Counter()
    for meta in metas:
        seen = [k for k in meta if k in wanted]
        before.update(itertools.combinations(seen, 2))

    def compare(a: str, b: str) -> int:
        ab, ba = before[(a, b)], before[(b, a)]
        if ab != ba:
            return -1 if ab > ba else 1
        return default.index(a) - default.index(b)

    return tuple(sorted(default, key=functools.cmp_to_key(compare)))


def _nearest(pkg: Package, bundle: str) -> Iterable[Document]:
    """The bundle's documents, then the other documents of the package (by path)."""
    own = pkg.documents_in(bundle)
    yield from own
    mine = {d.path for d in own}
    for path in sorted(pkg.documents):
        if path not in mine:
            yield pkg.documents[path]


def _frontmatter_texts(pkg: Package, documents: Iterable[Document]) -> Iterable[str]:
    """The YAML of up to :data:`TEXT_SAMPLE` readable documents' frontmatter blocks."""
    read = 0
    for doc in documents:
        if read >= TEXT_SAMPLE:
            return
        if doc.broken:
            continue
        try:
            text = pkg.read_text(doc.path)
            block = fm.find_block(text)
        except (OSError, FormatError, PermissionError):
            continue
        if block is not None:
            read += 1
            yield text[block.yaml_start : block.yaml_end]
