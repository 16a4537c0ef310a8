"""Blame: for each question missed or reached late, the index entry where the walk left the path.

The path to a gold document is the chain of index entries leading to it from the root
index (``index.md`` lists ``billing/``, ``billing/index.md`` lists ``refunds.md``).
Walking that chain down, the first entry whose index the navigator read but whose
target it never opened is where it left the path; the sibling it opened instead (the
first entry of the same index it opened after reading it) is what drew it away. Both
are reported with their descriptions and a fix hint naming the file and line.

A question reached, but on a turn after ``within`` (4: the figure "reach within 4
turns" counts), is a detour: the first entry on the path whose index the walk read
and did not follow straight away, and what it opened first instead. A detour costs
turns and tokens as a miss costs the answer, and has the same fix.

Over all misses and detours: the entries that mislead most often, the pairs of siblings
confused with each other, and the gold documents no question reached. Blame reads the package
(it is the analysis, not the navigator) and the runs' steps only, so it works the same
for the lexical navigator, an LLM or a logged session.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE
from kas_tui.features.evaluate.metrics import reached_within
from kas_tui.features.evaluate.runs import FAILED, Run
from kas_tui.text.lexical import query_terms, words

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.records import Listing

# Kinds of blame.
LEFT_PATH = "left-path"  # read the index, opened a sibling instead of the entry
NOT_CHOSEN = "not-chosen"  # read the gold's own index entry, never opened the document
NO_ROOT = "no-root"  # never read the first index on the path
UNLISTED = "unlisted"  # no index leads to the gold document
NAVIGATOR = "navigator-failed"  # the navigator itself failed (an LLM endpoint error)
DETOUR = "detour"  # reached, but late: did not follow the path straight from an index


@dataclass(frozen=True)
class EntryRef:
    """An index entry: the index file, the 1-based line, what it says and where it leads
    (``target``: a document path, or a bundle folder with a trailing ``/``)."""

    index: str
    line: int
    title: str
    description: str
    target: str

    @property
    def where(self) -> str:
        return f"{self.index}:{self.line}"

    def record(self) -> dict[str, object]:
        return {
            "index": self.index,
            "line": self.line,
            "title": self.title,
            "description": self.description,
            "target": self.target,
        }


@dataclass(frozen=True)
class Blame:
    """Why one question was missed: ``expected`` is the entry on the path the walk left,
    ``chosen`` the entry it opened instead (``None`` when it opened nothing listed)."""

    question_id: str
    kind: str
    expected: EntryRef | None
    chosen: EntryRef | None
    chosen_path: str
    hint: str

    @property
    def late(self) -> bool:
        """A detour: the question was reached, on a turn after ``within``."""
        return self.kind == DETOUR

    def record(self) -> dict[str, object]:
        return {
            "question": self.question_id,
            "kind": self.kind,
            "expected": self.expected.record() if self.expected else None,
            "chosen": self.chosen.record() if self.chosen else None,
            "chosen_path": self.chosen_path,
            "hint": self.hint,
        }


class PathFinder:
    """The index entries of a package, as chains from the root index to each document."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.parents: dict[str, list[EntryRef]] = {}
        self.by_index: dict[str, list[EntryRef]] = {}
        for folder in sorted(package.indexes):
            for listing in package.listings(folder):
                ref = _ref(listing)
                if ref is None:
                    continue
                self.parents.setdefault(ref.target, []).append(ref)
                self.by_index.setdefault(ref.index, []).append(ref)

    def chain(self, path: str) -> list[EntryRef]:
        """The entries from the root index down to ``path`` (empty when none leads there).

        When several indexes list a target, the one in its own folder is preferred, then
        the shortest way up.
        """
        chain: list[EntryRef] = []
        key, seen = path, set()
        while key not in seen:
            seen.add(key)
            refs = self.parents.get(key)
            if not refs:
                return []
            own = posixpath.dirname(key.rstrip("/"))
            ref = min(refs, key=lambda r: (_folder_of(r.index) != own, r.index.count("/")))
            chain.append(ref)
            folder = _folder_of(ref.index)
            if not folder:
                return chain[::-1]
            key = folder + "/"
        return []

    def entry_for(self, path: str, index: str | None = None) -> EntryRef | None:
        """The entry leading to ``path`` (a document, or ``folder/``), in ``index`` if given."""
        refs = self.parents.get(path, [])
        for ref in refs:
            if index is None or ref.index == index:
                return ref
        return None


def _folder_of(index_path: str) -> str:
    return posixpath.dirname(index_path)


def _ref(listing: Listing) -> EntryRef | None:
    if listing.kind == "document":
        target = listing.path
    elif listing.kind == "bundle":
        target = listing.path + "/" if listing.path else ""
    else:
        return None
    entry = listing.entry
    return EntryRef(listing.index, entry.line, entry.title, entry.description, target)


def _opened_key(tool: str, path: str) -> str | None:
    """What a call opened, as an entry's target: a document, or ``folder/``."""
    if tool == LISTDIR:
        return path + "/" if path else ""
    if tool in (READFILE, PEEK):
        if posixpath.basename(path) == "index.md":
            folder = posixpath.dirname(path)
            return folder + "/" if folder else ""
        return path
    return None


#: How common each of some words is in the package (documents holding it), for a hint to
#: name the rarest first: those tell a document apart.
Frequencies = Callable[[Sequence[str]], Mapping[str, int]]


def blame_run(
    run: Run,
    paths: PathFinder,
    within: int | None = None,
    frequencies: Frequencies | None = None,
) -> Blame | None:
    """Why ``run`` missed its gold documents; ``None`` when it reached one, unless
    ``within`` is given and it reached it only on a later turn (then: the detour).
    With ``frequencies``, a hint names the question's rarest missing words first."""
    qid = run.question.id
    if run.reached:
        if within is None or reached_within(run, within):
            return None
        return _detour(run, paths, run.turns_to_gold or 0, frequencies)
    if run.ended == FAILED:
        return Blame(qid, NAVIGATOR, None, None, "", f"the navigator failed: {run.note}")
    gold = run.question.gold[0] if run.question.gold else ""
    chain = next((c for c in (paths.chain(g) for g in run.question.gold) if c), [])
    if not chain:
        hint = (
            f"no index lists {gold}: add an entry for it to "
            f"{posixpath.join(posixpath.dirname(gold), 'index.md')} (kas-tui check --fix "
            "lists missing entries)"
        )
        return Blame(qid, UNLISTED, None, None, "", hint)
    read_turn, opened = _opened(run)
    opened_keys = {key for _, key in opened if key}
    for position, ref in enumerate(chain):
        if ref.index not in read_turn:
            if position == 0:
                hint = (
                    f"the walk never read {ref.index}: make SKILL.md point to it "
                    '("Start at `/index.md`") and say what the package covers'
                )
                return Blame(qid, NO_ROOT, ref, None, "", hint)
            continue  # reached deeper some other way: look further down
        if ref.target in opened_keys:
            continue
        after = [key for turn, key in opened if turn > read_turn[ref.index] and key]
        siblings = {r.target for r in paths.by_index.get(ref.index, [])}
        chosen_key = next((k for k in after if k in siblings), after[0] if after else "")
        chosen = paths.entry_for(chosen_key, ref.index) or paths.entry_for(chosen_key)
        kind = NOT_CHOSEN if position == len(chain) - 1 else LEFT_PATH
        hint = _hint(run, ref, chosen, chosen_key, frequencies)
        return Blame(qid, kind, ref, chosen, chosen_key, hint)
    return None  # every entry opened but no gold read: a peek only, or a failed read


def _opened(run: Run) -> tuple[dict[str, int], list[tuple[int, str]]]:
    """The turn each file was first read on, and every call's target in order, as entry
    targets (a document, or ``folder/``)."""
    read_turn: dict[str, int] = {}
    opened: list[tuple[int, str]] = []
    for step in run.steps:
        if not step.ok or step.path is None:
            continue
        if step.tool == READFILE:
            read_turn.setdefault(step.path, step.turn)
        key = _opened_key(step.tool, step.path)
        if key is not None:
            opened.append((step.turn, key))
    return read_turn, opened


def _detour(
    run: Run, paths: PathFinder, turn: int, frequencies: Frequencies | None
) -> Blame | None:
    """A late reach: the first entry on the path to a gold document whose index the walk
    read and did not follow with its very next call, and that call's target. With several
    gold documents, the path the walk kept to longest (the one it left last)."""
    read_turn, opened = _opened(run)
    found: list[tuple[int, EntryRef, str]] = []
    for gold in run.question.gold:
        chain = paths.chain(gold)
        left = None
        for ref in chain:
            if ref.index not in read_turn:
                continue  # reached deeper some other way (SKILL.md named it)
            after = [key for t, key in opened if t > read_turn[ref.index]]
            if after and after[0] != ref.target:
                left = (read_turn[ref.index], ref, after[0])
                break
        if left is None and chain:
            return None  # followed a path straight away: the path itself is long
        if left is not None:
            found.append(left)
    if not found:
        return None
    _, ref, chosen_key = max(found, key=lambda item: item[0])
    chosen = paths.entry_for(chosen_key, ref.index) or paths.entry_for(chosen_key)
    hint = f"reached on turn {turn}: " + _hint(run, ref, chosen, chosen_key, frequencies)
    return Blame(run.question.id, DETOUR, ref, chosen, chosen_key, hint)


def _hint(
    run: Run,
    expected: EntryRef,
    chosen: EntryRef | None,
    chosen_key: str,
    frequencies: Frequencies | None = None,
) -> str:
    asked = query_terms(run.question.question)
    said = {w[:5] for w in words(f"{expected.title} {expected.description}")}
    missing: list[str] = []
    for term in asked:  # each word once ("customer", "customers"), in the question's order
        if term[:5] not in said and all(term[:5] != m[:5] for m in missing):
            missing.append(term)
    if frequencies is not None and missing:
        # the rarest first ("original", "payment" before "rules", "go", "back"); a word
        # no document holds (a typo, a joined form) last: nothing could mention it
        counts = frequencies(missing)
        order = {t: i for i, t in enumerate(missing)}
        missing.sort(key=lambda t: (counts.get(t, 0) == 0, counts.get(t, 0), order[t]))
    what = "bundle" if expected.target.endswith("/") else "document"
    parts = [f"{expected.where}: the entry for {expected.target or 'the root'} ({what})"]
    if not expected.description:
        parts.append("has no description: say in one sentence what it answers")
    elif missing:
        parts.append(
            "does not mention " + ", ".join(missing[:6]) + ": say what the " + what + " covers"
        )
    else:
        parts.append("mentions the question's words but drew less than another: be more specific")
    if chosen is not None:
        parts.append(
            f"and tell it apart from {chosen.title!r} ({chosen.where}), which the walk opened "
            "instead"
        )
    elif chosen_key:
        parts.append(f"(the walk opened {chosen_key} instead)")
    return " ".join(parts)


@dataclass(frozen=True)
class BlameSummary:
    """Blame over an evaluation: entries that mislead, confused siblings, unreached gold."""

    misleading: tuple[tuple[EntryRef, int], ...]
    confused: tuple[tuple[EntryRef, EntryRef, int], ...]
    unreached: tuple[str, ...]
    by_kind: dict[str, int]

    def record(self) -> dict[str, object]:
        return {
            "misleading": [{"entry": e.record(), "times": n} for e, n in self.misleading],
            "confused_siblings": [
                {"a": a.record(), "b": b.record(), "times": n} for a, b, n in self.confused
            ],
            "unreached_gold": list(self.unreached),
            "by_kind": self.by_kind,
        }


def summarise_blame(runs: Sequence[Run], blames: Sequence[Blame], top: int = 10) -> BlameSummary:
    """The entries chosen instead most often, sibling pairs confused, gold never reached."""
    misleading: Counter[EntryRef] = Counter()
    pairs: Counter[tuple[EntryRef, EntryRef]] = Counter()
    for blame in blames:
        if blame.chosen is None or blame.expected is None:
            continue
        misleading[blame.chosen] += 1
        if blame.chosen.index == blame.expected.index:
            a, b = sorted((blame.expected, blame.chosen), key=lambda r: (r.index, r.line))
            pairs[(a, b)] += 1
    reached = {g for r in runs if r.reached for g in r.question.gold}
    unreached = sorted({g for r in runs for g in r.question.gold} - reached)
    order = lambda item: (-item[1], item[0].index, item[0].line)  # noqa: E731
    top_misleading = sorted(misleading.items(), key=order)[:top]
    top_pairs = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0][0].index, kv[0][0].line))
    return BlameSummary(
        misleading=tuple(top_misleading),
        confused=tuple((a, b, n) for (a, b), n in top_pairs[:top]),
        unreached=tuple(unreached),
        by_kind=dict(Counter(b.kind for b in blames)),
    )
