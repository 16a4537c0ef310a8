"""The flat baseline: retrieve-and-concatenate over every document's body.

What a fixed retrieval pipeline does with the same questions: one BM25 table of every
document's body (frontmatter left out: a pipeline chunks what the document says), the
question's content words as the query, the top five documents handed to the model.
It ignores SKILL.md, the indexes and the descriptions entirely, so beside the
navigator it shows what the navigation layers add (or cost). Scored by
:mod:`.lexical`, the same scorer the navigator uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kas_tui.features.evaluate.runs import Question
from kas_tui.text.lexical import LexicalIndex, query_terms

if TYPE_CHECKING:
    from kas_tui.core.package import Package

#: The cut-offs recall is reported at.
RECALL_AT = (1, 3, 5)


@dataclass(frozen=True)
class Retrieval:
    """The documents the baseline retrieved for one question, best first (at most 5),
    and the rank (1-based) of the first gold document among them, if any."""

    question: Question
    ranked: tuple[str, ...]

    @property
    def gold_rank(self) -> int | None:
        for rank, path in enumerate(self.ranked, start=1):
            if path in self.question.gold:
                return rank
        return None

    def hit(self, k: int) -> bool:
        rank = self.gold_rank
        return rank is not None and rank <= k


class FlatBaseline:
    """A BM25 table of the package's document bodies; :meth:`retrieve` per question."""

    name = "flat-bm25"

    def __init__(self, package: Package, depth: int = max(RECALL_AT)) -> None:
        self.depth = depth
        self.index = LexicalIndex(("text",))
        self.index.add_many((path, (_body(package, path),)) for path in sorted(package.documents))

    def retrieve(self, question: Question) -> Retrieval:
        ranked = self.index.search(query_terms(question.question), limit=self.depth)
        return Retrieval(question, tuple(path for path, _ in ranked))

    def frequencies(self, words: Iterable[str]) -> dict[str, int]:
        """How many document bodies hold each of ``words`` (by stem): how common a word is
        in this package, for blame to name a question's rarest words first."""
        return self.index.frequencies(words)

    def close(self) -> None:
        self.index.close()


def _body(package: Package, path: str) -> str:
    try:
        return package.body(path)
    except (OSError, ValueError):
        return ""


def recall(retrievals: Sequence[Retrieval], k: int) -> float:
    """Share of questions with a gold document among the top ``k`` (0 without questions)."""
    if not retrievals:
        return 0.0
    return sum(r.hit(k) for r in retrievals) / len(retrievals)


def run_flat(package: Package, questions: Iterable[Question]) -> list[Retrieval]:
    """The baseline's retrievals for ``questions``."""
    baseline = FlatBaseline(package)
    try:
        return [baseline.retrieve(q) for q in questions]
    finally:
        baseline.close()
