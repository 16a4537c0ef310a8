"""``eval --discovery``: does an agent pick this skill from the catalog when it should?

Before it reads a page, an agent judges from the catalog (``<available_skills>``: one
name and description per installed skill, see
:mod:`kas_tui.features.agent.skill_catalog`) which skill fits the request. Here the
package's catalog entry is put among others (:func:`decoy_catalog`, real-shaped
descriptions bundled as data, or :func:`installed_catalog`, the skills installed for the
user where ``kas-tui install`` puts them) and a :class:`Router` picks one entry, or
none, for each trigger query (:mod:`.trigger_queries`).

The router is pluggable: :class:`LexicalRouter` (BM25 over each entry's name and
description, the one lexical scorer of :mod:`kas_tui.text.lexical`; the name counts
twice) picks the best-scoring entry, or none when no entry shares a content word with
the query. An agent or LLM router is any object with a ``name`` and a ``route`` method,
made by a :data:`RouterFactory` from the catalog; :data:`ROUTERS` names the ones there
are.

A query *triggered* the skill when the router picked the package's entry. Precision:
of the queries that triggered it, how many should have; recall: of the queries that
should, how many did. Blame names, for every should-trigger query the router did not
give the package, the query's content words its name and description lack (matched as
BM25 matches them: folded and stemmed); for every false trigger, the words they share.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Protocol

from kas_tui.features.agent.skill_catalog import CatalogEntry
from kas_tui.features.evaluate.trigger_queries import TriggerQuery
from kas_tui.text.lexical import LexicalIndex, query_concepts, query_terms

#: The bundled decoy skills (name, description, and queries that belong to each).
DECOYS_DATA = "data/decoy_skills.json"


# --- the catalog -----------------------------------------------------------------------


def decoy_skills() -> list[tuple[CatalogEntry, tuple[str, ...]]]:
    """The bundled decoy skills: each catalog entry and the queries that belong to it."""
    text = (resources.files(__package__) / DECOYS_DATA).read_text(encoding="utf-8")
    skills = []
    for item in json.loads(text)["skills"]:
        location = f"decoys/{item['name']}/SKILL.md"
        entry = CatalogEntry(item["name"], item["description"], location)
        skills.append((entry, tuple(item["queries"])))
    return skills


def decoy_catalog() -> list[CatalogEntry]:
    return [entry for entry, _ in decoy_skills()]


def installed_catalog(
    *, home: Path | None = None, project: Path | None = None
) -> list[CatalogEntry]:
    """The skills installed for the user: every skill folder of every client ``kas-tui
    install`` knows, in the home folder and in ``project`` (the current folder when not
    given), each name once (the first found), as a harness lists them."""
    from kas_tui.core.fileio import read_regular
    from kas_tui.core.okf.skill import parse_skill
    from kas_tui.core.okf.text import decode
    from kas_tui.features.install import CLIENTS, installed_in, skills_folder

    folders: list[Path] = []
    for base in (dict(home=home), dict(project=project or Path.cwd())):
        for client in CLIENTS:
            folder = skills_folder(client, **base)  # type: ignore[arg-type]
            if folder not in folders:
                folders.append(folder)
    entries: dict[str, CatalogEntry] = {}
    for folder in folders:
        for found in installed_in(folder):
            location = found.path / "SKILL.md"
            try:
                skill = parse_skill(decode(read_regular(location)).text)
            except (OSError, ValueError):
                continue  # unreadable: a harness would not list it either
            name, description = skill.name.strip(), skill.description.strip()
            if name and description and name not in entries:
                entries[name] = CatalogEntry(name, description, str(location))
    return list(entries.values())


# --- routers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Routing:
    """What a router made of one query: the entry it picked (``None``: none fits) and,
    when it scores entries, all of them best first."""

    picked: str | None
    ranking: tuple[tuple[str, float], ...] = ()


class Router(Protocol):
    name: str

    def route(self, query: str) -> Routing: ...


#: Makes a router over a catalog.
RouterFactory = Callable[[Sequence[CatalogEntry]], Router]


class LexicalRouter:
    """BM25 over each entry's name and description (see the module docstring)."""

    name = "lexical-bm25"
    WEIGHTS = (2.0, 1.0)

    def __init__(self, entries: Sequence[CatalogEntry]) -> None:
        self.index = LexicalIndex(("name", "description"), self.WEIGHTS)
        self.index.add_many((e.name, (e.name, e.description)) for e in entries)

    def route(self, query: str) -> Routing:
        ranking = tuple(self.index.search(query_terms(query)))
        return Routing(ranking[0][0] if ranking else None, ranking)

    def close(self) -> None:
        self.index.close()


ROUTERS: dict[str, RouterFactory] = {LexicalRouter.name: LexicalRouter}


# --- running and judging ---------------------------------------------------------------


@dataclass(frozen=True)
class TriggerResult:
    """One query routed. ``rank``: the package entry's place in the router's ranking
    (1 = picked; ``None``: not ranked); ``lacking``: the query's content words the
    entry lacks; ``shared``: those it holds."""

    query: TriggerQuery
    routing: Routing
    triggered: bool
    rank: int | None
    lacking: tuple[str, ...]
    shared: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return self.triggered == self.query.should_trigger


@dataclass
class Discovery:
    """A discovery evaluation: the package's entry among ``catalog``, each query routed."""

    entry: CatalogEntry
    catalog: list[CatalogEntry]
    against: str
    router: str
    source: str
    results: list[TriggerResult] = field(default_factory=list)

    def _count(self, should: bool, triggered: bool) -> int:
        return sum(
            r.query.should_trigger == should and r.triggered == triggered for r in self.results
        )

    @property
    def true_positives(self) -> int:
        return self._count(True, True)

    @property
    def false_positives(self) -> int:
        return self._count(False, True)

    @property
    def false_negatives(self) -> int:
        return self._count(True, False)

    @property
    def precision(self) -> float | None:
        triggered = self.true_positives + self.false_positives
        return self.true_positives / triggered if triggered else None

    @property
    def recall(self) -> float | None:
        should = self.true_positives + self.false_negatives
        return self.true_positives / should if should else None

    @property
    def missed(self) -> list[TriggerResult]:
        return [r for r in self.results if r.query.should_trigger and not r.triggered]

    @property
    def false_triggers(self) -> list[TriggerResult]:
        return [r for r in self.results if not r.query.should_trigger and r.triggered]

    def lacking_words(self) -> list[tuple[str, int]]:
        """The words missed queries use that the entry lacks, most often first."""
        return Counter(w for r in self.missed for w in r.lacking).most_common()

    def shared_words(self) -> list[tuple[str, int]]:
        """The words false triggers share with the entry, most often first."""
        return Counter(w for r in self.false_triggers for w in r.shared).most_common()


def discover(
    entry: CatalogEntry,
    others: Sequence[CatalogEntry],
    queries: Sequence[TriggerQuery],
    *,
    against: str = "decoys",
    source: str = "drafted",
    router: RouterFactory = LexicalRouter,
) -> Discovery:
    """Route every query over ``entry`` among ``others`` (an other entry of the same
    name as the package's is left out: it is the package installed)."""
    catalog = [entry, *(e for e in others if e.name != entry.name)]
    made = router(catalog)
    judge = LexicalIndex(("text",))
    judge.add("entry", f"{entry.name} {entry.description}")
    result = Discovery(entry, catalog, against, made.name, source)
    try:
        for query in queries:
            routing = made.route(query.query)
            names = [name for name, _ in routing.ranking]
            terms = query_terms(query.query)
            shared = judge.matched("entry", terms)
            # a hyphenated word is one concept ("on-call": call, oncall): lacking when
            # none of its forms is held, named by its longest form
            lacking = [
                max(group, key=len)
                for group in query_concepts(query.query)
                if not any(t in shared for t in group)
            ]
            result.results.append(
                TriggerResult(
                    query,
                    routing,
                    routing.picked == entry.name,
                    names.index(entry.name) + 1 if entry.name in names else None,
                    tuple(lacking),
                    tuple(shared),
                )
            )
    finally:
        judge.close()
        close = getattr(made, "close", None)
        if close is not None:
            close()
    return result


# --- reports ---------------------------------------------------------------------------


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def discovery_record(d: Discovery) -> dict[str, object]:
    """The JSON report; each query as the Agent Skills trigger scripts record one
    (``query``, ``should_trigger``, ``triggers``, ``runs``, ``trigger_rate``) and more."""
    return {
        "package": d.entry.name,
        "description": d.entry.description,
        "router": d.router,
        "against": d.against,
        "queries_source": d.source,
        "catalog": [e.name for e in d.catalog],
        "queries": len(d.results),
        "should_trigger": sum(r.query.should_trigger for r in d.results),
        "true_positives": d.true_positives,
        "false_positives": d.false_positives,
        "false_negatives": d.false_negatives,
        "precision": None if d.precision is None else round(d.precision, 4),
        "recall": None if d.recall is None else round(d.recall, 4),
        "passed": sum(r.passed for r in d.results),
        "blame": {
            "lacking": [{"word": w, "queries": n} for w, n in d.lacking_words()],
            "shared_by_false_triggers": [{"word": w, "queries": n} for w, n in d.shared_words()],
        },
        "results": [
            {
                "query": r.query.query,
                "should_trigger": r.query.should_trigger,
                "triggers": int(r.triggered),
                "runs": 1,
                "trigger_rate": float(r.triggered),
                "passed": r.passed,
                "picked": r.routing.picked,
                "rank": r.rank,
                "lacking": list(r.lacking),
                "shared": list(r.shared),
                "origin": r.query.origin,
            }
            for r in d.results
        ],
    }


def format_discovery_json(d: Discovery) -> str:
    return json.dumps(discovery_record(d), indent=2, ensure_ascii=False)


def format_discovery_text(d: Discovery, *, top: int = 10) -> str:
    """The report for a terminal."""
    should = sum(r.query.should_trigger for r in d.results)
    tp, fp = d.true_positives, d.false_positives
    lines = [
        f"kas-tui eval --discovery: {d.entry.name} among {len(d.catalog)} catalog entries "
        f"({d.against}), router {d.router}, queries {d.source}",
        "",
        f"{len(d.results)} queries: {should} should trigger, {len(d.results) - should} should not",
        f"triggering: precision {_share(d.precision)} ({tp} of {tp + fp} triggered), "
        f"recall {_share(d.recall)} ({tp} of {should})",
        f"routed right: {sum(r.passed for r in d.results)} of {len(d.results)}",
    ]
    if d.missed:
        lines += ["", "Missed (should trigger; the router picked another entry or none):"]
        for r in d.missed[:top]:
            picked = r.routing.picked or "none"
            lacks = ", ".join(r.lacking) or "nothing (outscored)"
            lines.append(f"  {_quoted(r.query.query)}")
            lines.append(f"    picked {picked}; the description lacks: {lacks}")
    if d.false_triggers:
        lines += ["", "False triggers (should not trigger; the router picked this skill):"]
        for r in d.false_triggers[:top]:
            lines.append(f"  {_quoted(r.query.query)}")
            lines.append(f"    shares: {', '.join(r.shared)} ({r.query.origin})")
    lacking = d.lacking_words()
    if lacking:
        said = ", ".join(f"{w} ({n})" for w, n in lacking[:top])
        lines += ["", f"Blame: words the missed queries use that the description lacks: {said}"]
    elif not d.missed:
        lines += ["", "Blame: no should-trigger query missed."]
    return "\n".join(lines)


def _quoted(text: str, width: int = 96) -> str:
    return '"' + (text if len(text) <= width else text[: width - 1] + "…") + '"'
