"""Trigger queries for ``eval --discovery``: prompts labelled with whether they should
make an agent pick the package's skill from the catalog.

Read in the Agent Skills form (``docs/skill-creation/optimizing-descriptions.mdx``), a
JSON array ::

    [{"query": "...", "should_trigger": true}, {"query": "...", "should_trigger": false}]

also as ``{"evals": [...]}`` with ``prompt`` for ``query`` (as skill-creator writes it),
or as JSON Lines, one such object per line. Reading never raises: what cannot be taken
is a :class:`~.questions.QuestionProblem` naming the file, the line and the fault.

Drafted from the package when the user gives none (:func:`draft_trigger_queries`):
should-trigger queries are the package's own drafted questions (section goals first,
then FAQ headings and symptoms, the only kinds the drafter drafts; from the bodies, never
from the descriptions the router reads); should-not-trigger ones are near-misses, the queries of the decoy skills
(:mod:`.discovery`) that share the most words with the package's catalog entry.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kas_tui.core.fileio import os_reason, read_regular
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.text import decode
from kas_tui.features.evaluate.questions import QuestionProblem, _is_json, _kind

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.features.agent.skill_catalog import CatalogEntry

#: Drafted queries of each kind (the format's advice: 8 to 10 of each).
DRAFTED_EACH = 10
#: Drafted question kinds used first, best first (see :mod:`.drafting`).
PREFERRED_KINDS = ("goal", "faq", "symptom")


@dataclass(frozen=True)
class TriggerQuery:
    """A prompt and whether the package's skill should be picked for it; ``origin``
    says where it came from (a drafted question's document, a decoy skill, a file)."""

    query: str
    should_trigger: bool
    origin: str = ""
    line: int = 0


@dataclass
class TriggerSet:
    source: str
    queries: list[TriggerQuery]
    problems: list[QuestionProblem]


def read_trigger_queries(path: str | os.PathLike[str]) -> TriggerSet:
    """Read a trigger-query file (see the module docstring)."""
    source = os.fspath(path)
    tset = TriggerSet(source, [], [])
    try:
        text = decode(read_regular(path)).text
    except FormatError as exc:
        tset.problems.append(QuestionProblem(source, exc.line or 0, exc.message))
        return tset
    except OSError as exc:
        tset.problems.append(QuestionProblem(source, 0, f"cannot read: {os_reason(exc)}"))
        return tset
    return parse_trigger_queries(text, source)


def parse_trigger_queries(text: str, source: str = "<queries>") -> TriggerSet:
    tset = TriggerSet(source, [], [])
    items: list[tuple[int, Any]] = []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as whole:
        lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)]
        lines = [(n, line) for n, line in lines if line and not line.startswith(("#", "//"))]
        if not lines or not _is_json(lines[0][1]):  # one JSON document, broken
            tset.problems.append(
                QuestionProblem(
                    source,
                    whole.lineno,
                    f"not valid JSON ({whole.msg} at column {whole.colno}); write "
                    '[{"query": "...", "should_trigger": true}, ...]',
                )
            )
            return tset
        for number, line in lines:  # JSON Lines
            try:
                items.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                tset.problems.append(
                    QuestionProblem(
                        source,
                        number,
                        f"not valid JSON ({exc.msg} at column {exc.colno}); write one "
                        '{"query": "...", "should_trigger": true} per line',
                    )
                )
    else:
        if isinstance(data, dict) and isinstance(data.get("evals"), list):
            data = data["evals"]
        elif isinstance(data, dict):
            data = [data]
        if not isinstance(data, list):
            tset.problems.append(
                QuestionProblem(
                    source,
                    0,
                    f"expected a list of trigger queries, got {_kind(data)}; write "
                    '[{"query": "...", "should_trigger": true}, ...]',
                )
            )
            return tset
        items = [(0, item) for item in data]
    for index, (number, item) in enumerate(items):
        query = _trigger(item, number, index, source, tset)
        if query is not None:
            tset.queries.append(query)
    if not tset.queries and not tset.problems:
        tset.problems.append(QuestionProblem(source, 0, "holds no trigger queries"))
    return tset


def _trigger(
    item: Any, number: int, index: int, source: str, tset: TriggerSet
) -> TriggerQuery | None:
    where = "" if number else f"item {index + 1}: "

    def problem(message: str) -> None:
        tset.problems.append(QuestionProblem(source, number, where + message))

    if not isinstance(item, dict):
        problem(f"expected an object, got {_kind(item)}")
        return None
    query = next((item[k] for k in ("query", "prompt", "question") if k in item), None)
    if not isinstance(query, str) or not query.strip():
        problem("'query' must be a non-empty string")
        return None
    should = item.get("should_trigger")
    if not isinstance(should, bool):
        said = "missing" if should is None else _kind(should)
        if "gold" in item or "expected_output" in item:
            problem(
                'a question, not a trigger query: give each query "should_trigger": true '
                "or false (navigation questions are eval's --questions without --discovery)"
            )
        else:
            problem(f"'should_trigger' must be true or false (it is {said})")
        return None
    return TriggerQuery(" ".join(query.split()), should, "file", number)


def draft_trigger_queries(
    package: Package,
    entry: CatalogEntry,
    decoys: Sequence[tuple[CatalogEntry, Sequence[str]]],
    *,
    each: int = DRAFTED_EACH,
    seed: int = 0,
) -> list[TriggerQuery]:
    """Should-trigger queries from the package's bodies and should-not-trigger
    near-misses from ``decoys`` (an entry and the queries that belong to it)."""
    from kas_tui.features.evaluate.drafting import draft_questions
    from kas_tui.text.lexical import LexicalIndex, query_terms

    drafted = draft_questions(package, n=max(each * 5, 50), seed=seed)
    kinds = {q.id: q.tags[1] if len(q.tags) > 1 else "" for q in drafted}
    drafted.sort(
        key=lambda q: PREFERRED_KINDS.index(k) if (k := kinds[q.id]) in PREFERRED_KINDS else 9
    )
    should = [
        TriggerQuery(q.question, True, f"drafted ({kinds[q.id]}) from {q.gold[0]}")
        for q in drafted[:each]
    ]
    index = LexicalIndex(("text",))
    try:
        index.add("entry", f"{entry.name} {entry.description}")
        near = []
        for order, (decoy, queries) in enumerate(decoys):
            if decoy.name == entry.name:
                continue
            for query in queries:
                shared = len(index.matched("entry", query_terms(query)))
                near.append((-shared, order, query, decoy.name))
    finally:
        index.close()
    near.sort(key=lambda t: t[:2])
    picked, seen = [], set()
    for _, _, query, name in near:  # one per decoy first, so they span the siblings
        if name not in seen and len(picked) < each:
            seen.add(name)
            picked.append(TriggerQuery(query, False, f"near-miss from {name}"))
    return should + picked
