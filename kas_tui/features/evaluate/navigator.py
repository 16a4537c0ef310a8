"""The lexical navigator: a deterministic agent that walks the package like the agent.

It is given the catalog entry and a question, and from then on knows only what its own
tool calls returned: it makes every call through a :class:`~kas_tui.features.agent.Walk`, which
refuses a path nothing it has read named, with the walk's tools (``listdir``,
``readfile``, optionally ``peek``, ``submit_answer``) and budget (15 turns).

How it chooses, turn by turn:

1. The skill is activated as the Knowledge-as-Skill paper's harness (and the LLM
   navigator) activates it: SKILL.md is in the prompt before the first call, read
   through the sandbox, so what it names is reachable and its turn is not spent. Then
   it reads the root ``index.md`` when SKILL.md named it ("start at ``/index.md``"),
   unless SKILL.md names a document on a line holding half the question's words (an
   entry point written for such questions), which it reads first.
2. Every path it has been shown is a candidate, cued by what named it: an index
   entry's title and description, a link's text, a listed file's name. All cues seen so
   far are one BM25 table (:mod:`.lexical`); the candidates not yet opened are ranked
   by their cue's score against the question, best first (ties: the first named).
   An entry also inherits half the score of the bundle entry that led to its index
   (entries of a bundle chosen for the question are worth a look even when their own
   words miss), halved for each of the bundle's documents read that did not answer (a
   bundle that disappoints loses its pull). Bundles (their ``index.md``), documents and folders without an index
   compete in the same ranking, so when a bundle's entries all score below an entry
   seen earlier elsewhere, it goes back there: that is its backtracking.
3. A document whose cue has no description (named by a link or a listing, or by an
   entry without one; a line of SKILL.md naming it counts as one) is peeked at first when ``peek`` is on; the frontmatter's title,
   description and tags become its cue, and the ranking is made again.
4. After reading a document it asks whether the document answers: whether one of its
   sections, read with the document's title and description, holds the question's
   content words (stemmed, as BM25 matches them; a hyphenated word's parts and joined
   form count as one word, :func:`.lexical.query_concepts`): ``answer_share`` of them,
   or all but one (:func:`.passages.answers`). Then it submits an answer quoting that section's
   best sentence.
5. When nothing it was shown matches a word of the question, it reads the first bundle
   index it has not read (in the order they were named), since an index is where new
   words come from; it gives up (submits nothing) when none is left, and submits what it
   has when one turn is left.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.features.agent.reveal import ENTRY, LISTING, MENTION, Reveal
from kas_tui.features.agent.sandbox import Sandbox
from kas_tui.features.agent.skill_catalog import CatalogEntry
from kas_tui.features.agent.step import Step, role_of
from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE
from kas_tui.features.agent.trail import Served
from kas_tui.features.agent.walk import Walk, WalkError
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET
from kas_tui.features.evaluate.passages import ANSWER_SHARE, answers, passages
from kas_tui.features.evaluate.runs import ANSWERED, BUDGET, FAILED, GAVE_UP, Choice, Question, Run
from kas_tui.text.lexical import (
    LexicalIndex,
    concepts_found,
    joined_pairs,
    query_concepts,
    query_terms,
    words,
)

NAME = "lexical-bm25"
#: The skill file the harness puts in the prompt when the skill is activated.
SKILL_FILE = "SKILL.md"
#: Cue columns and their BM25 weights: what an entry says, and its path's words.
_COLUMNS = ("cue", "path")
_WEIGHTS = (1.0, 0.5)
#: Share of its bundle entry's score an entry inherits.
INHERIT = 0.5
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass
class _Candidate:
    path: str
    tool: str  # readfile or listdir
    described: bool  # its cue carries a description (an entry's, or a peek's)


class LexicalNavigator:
    """Runs questions through walks of one package view (see the module docstring).

    It holds no package: ``sandbox`` serves the calls (the package, or an ablated view of it); ``catalog`` is
    its catalog entry. ``served`` is shared by every run, so repeated calls are read
    and parsed once.
    """

    name = NAME

    def __init__(
        self,
        sandbox: Sandbox,
        catalog: CatalogEntry,
        *,
        budget: int = DEFAULT_BUDGET,
        peek: bool = True,
        answer_share: float = ANSWER_SHARE,
    ) -> None:
        if budget < 3:
            raise ValueError(f"the navigator needs a budget of at least 3 turns, not {budget}")
        self.sandbox = sandbox
        self.catalog = catalog
        self.budget = budget
        self.peek = peek
        self.answer_share = answer_share
        self.served: Served = {}

    def run(self, question: Question) -> Run:
        return _Navigation(self, question).run()


class _Navigation:
    """One question's walk."""

    def __init__(self, navigator: LexicalNavigator, question: Question) -> None:
        self.nav = navigator
        self.question = question
        self.terms = query_terms(question.question)
        self.concepts = query_concepts(question.question)  # what an answer is counted in
        # what entries are scored by: the terms, and their two-word spellings joined
        # ("fail over" finds "failover"); the answer test counts the terms alone
        self.cue_terms = self.terms + [
            j for j in joined_pairs(question.question) if j not in self.terms
        ]
        # No package: the walk serves every call through the sandbox, from the catalog on.
        self.walk = Walk(
            None,
            budget=navigator.budget,
            peek=navigator.peek,
            sandbox=navigator.sandbox,
            served=navigator.served,
            catalog=navigator.catalog,
            preloaded=(SKILL_FILE,),
        )
        self.cues = LexicalIndex(_COLUMNS, _WEIGHTS)
        self.described: set[str] = set()  # paths whose cue has a description
        self.cue_text: dict[str, list[str]] = {}  # key -> every cue shown for it
        self.parent: dict[str, str] = {}  # key -> the bundle key whose index named it
        self.children: dict[str, list[str]] = {}
        self.opened: set[str] = set()  # paths read or listed
        self.entry_points: dict[str, list[str]] = {}  # document -> SKILL.md lines naming it
        self.misses: dict[str, int] = {}  # bundle key -> its documents read that did not answer
        self.choices: list[Choice] = []
        self.best: tuple[float, str, str] | None = None  # share, path, sentence

    # -- the walk ---------------------------------------------------------------------

    def run(self) -> Run:
        try:
            ended, answer, note = self._walk()
        except WalkError as exc:  # a bug of the navigator's: this run says so, the rest go on
            ended, answer = FAILED, self._answer()
            note = (
                f"the navigator tried to open something no step had shown it ({exc}); "
                "this question was not measured: a kas-tui bug, please report it"
            )
        finally:
            self.cues.close()
        self.walk.submit(answer)
        return Run(
            question=self.question,
            navigator=NAME,
            budget=self.nav.budget,
            steps=self.walk.steps,
            summary=self.walk.summary(),
            ended=ended,
            answer=answer,
            note=note,
            choices=tuple(self.choices),
            preloaded=(SKILL_FILE,),
        )

    def _walk(self) -> tuple[str, str, str]:
        shortcuts = []
        for reveal in self.walk.trail.preload_reveals:
            if not reveal.folder and self._is_document(reveal.path):
                self.entry_points.setdefault(reveal.path, []).append(reveal.cue)
            else:
                shortcuts.append(reveal)
        self._learn(shortcuts)
        fits = self._entry_point_fit()
        if fits is not None:
            self._learn(r for r in self.walk.trail.preload_reveals if r.path == fits)
            self._choose(READFILE, fits, [(self._candidate(fits), 0.0)])
            if self._judge(fits):
                return ANSWERED, self._answer(), ""
        if self.walk.reach.knows("index.md"):
            self._call(READFILE, "index.md")
        while self._turns_left() > 1:
            ranked = self._ranked()
            if not ranked:
                unexplored = self._unexplored()
                fallback = [(unexplored, 0.0)] if unexplored else self._ranked(weak=True)
                ranked = fallback
                if not ranked:
                    return GAVE_UP, "", "nothing it was shown matches a word of the question"
            candidate, options = ranked[0][0], ranked[:5]
            if self.nav.peek and not candidate.described and self._is_document(candidate.path):
                self._choose(PEEK, candidate.path, options)
                continue
            self._choose(candidate.tool, candidate.path, options)
            if candidate.tool == READFILE and self._is_document(candidate.path):
                if self._judge(candidate.path):
                    return ANSWERED, self._answer(), ""
                bundle = self.parent.get(candidate.path)
                if bundle is not None:
                    self.misses[bundle] = self.misses.get(bundle, 0) + 1
        note = "the turn budget ran out"
        return BUDGET, self._answer(), note

    def _unexplored(self) -> _Candidate | None:
        """The first bundle index named but not read yet: where to look for words the
        question shares when nothing shown so far has any (``None`` when none is left)."""
        for key in self.cue_text:
            if key.endswith("/"):
                candidate = self._candidate(key)
                if candidate is not None and candidate.tool == READFILE:
                    return candidate
        return None

    def _entry_point_fit(self) -> str | None:
        """The document SKILL.md names on a line holding half the question's words, two
        at least (an entry point written for this kind of question), to be read first;
        ``None`` when no line fits. Other documents SKILL.md names become candidates
        only when an index or a link names them too (a one-word match on a short line
        of SKILL.md is no reason to skip the indexes), their SKILL.md lines then added
        to their cue."""
        if not self.entry_points or not self.terms:
            return None
        table = LexicalIndex(("cue",))
        try:
            table.add_many((path, (" ".join(cues),)) for path, cues in self.entry_points.items())
            for path, _ in table.search(self.terms, limit=1):
                found = table.matched(path, self.terms)
                if len(found) >= 2 and len(found) * 2 >= len(self.terms):
                    return path
        finally:
            table.close()
        return None

    def _turns_left(self) -> int:
        return self.nav.budget - self.walk.turns

    def _choose(self, tool: str, path: str, options: list[tuple[_Candidate, float]]) -> None:
        turn = self.walk.turns + 1
        self.choices.append(
            Choice(turn, tool, path, tuple((c.path, round(s, 4)) for c, s in options))
        )
        self._call(tool, path)

    def _call(self, tool: str, path: str) -> Step:
        step = self.walk.call(tool, {"path": path or "."})
        if tool != PEEK:  # a peeked document may still be read
            self.opened.add(path if tool != LISTDIR else path + "/")
        if tool == PEEK:
            self._learn_from_peek(path, step)
        if step.ok:
            self._learn(step.reveals)
        return step

    # -- what it was shown --------------------------------------------------------------

    def _learn(self, reveals: Iterable[Reveal]) -> None:
        """Fold what the step named into the cue table: each path's cue is everything
        the walk was shown about it (an entry's words, link texts, the lines it was
        mentioned on), its path's words in a column of their own."""
        changed: dict[str, None] = {}
        for reveal in reveals:
            key = reveal.path + "/" if reveal.folder else reveal.path
            cue = reveal.cue if reveal.how != LISTING else " ".join(words(reveal.cue))
            if key not in self.cue_text and posixpath.basename(reveal.source) == "index.md":
                folder = posixpath.dirname(reveal.source)
                bundle = folder + "/" if folder else "/"
                self.parent[key] = bundle
                self.children.setdefault(bundle, []).append(key)
            if _describes(reveal):
                self.described.add(key)
            if key not in self.cue_text and key in self.entry_points:
                self.cue_text[key] = [c for c in self.entry_points[key] if c]
                self.described.add(key)
                changed[key] = None  # its SKILL.md lines join the cue table now
            known = self.cue_text.setdefault(key, [])
            if key not in changed and (not known or (cue and cue not in known)):
                changed[key] = None
            if cue and cue not in known:
                known.append(cue)
        self.cues.add_many(
            (key, (" ".join(self.cue_text[key]), " ".join(words(key)))) for key in changed
        )

    def _learn_from_peek(self, path: str, step: Step) -> None:
        self.described.add(path)  # peeked: what it says is all there is to learn
        if not step.ok:
            return
        try:
            parsed = fm.parse(step.text)
        except FormatError:
            return
        if parsed is None or not isinstance(parsed.data, dict):
            return
        data = parsed.data
        parts = [data.get("title"), data.get("description")]
        tags = data.get("tags")
        if isinstance(tags, list):
            parts += [str(t) for t in tags]
        cue = " ".join(p for p in parts if isinstance(p, str) and p.strip())
        if cue:
            self.cue_text.setdefault(path, []).append(cue)
            self.cues.add(path, " ".join(self.cue_text[path]), " ".join(words(path)))

    # -- choosing -----------------------------------------------------------------------

    def _ranked(self, weak: bool = False) -> list[tuple[_Candidate, float]]:
        """Candidates not opened yet, best first. An entry whose own cue misses every
        word of the question is a candidate only by what it inherits from its bundle,
        and only until one of the bundle's documents disappointed (``weak`` lets them
        all in: the last resort before giving up)."""
        scores = self.cues.scores(self.cue_terms)
        keys = set(scores)
        for key, score in list(scores.items()):
            if key.endswith("/") and score > 0:
                keys.update(self.children.get(key, ()))
        ranked = []
        for key in keys:
            bundle = self.parent.get(key, "")
            misses = self.misses.get(bundle, 0)
            own = scores.get(key, 0.0)
            if own <= 0 and misses and not weak:
                continue
            score = own + INHERIT * 0.5**misses * scores.get(bundle, 0.0)
            if score <= 0:
                continue
            candidate = self._candidate(key)
            if candidate is not None:
                ranked.append((candidate, score, self.cues.order(key)))
        ranked.sort(key=lambda item: (-item[1], item[2]))
        best: dict[str, tuple[_Candidate, float]] = {}  # a bundle is named as folder and index
        for candidate, score, _ in ranked:
            best.setdefault(candidate.path, (candidate, score))
        return list(best.values())

    def _candidate(self, key: str) -> _Candidate | None:
        if key.startswith(("../", "/")) or key == "..":
            return None  # outside the package (a source file's own path): refused, never tried
        described = key in self.described
        if key.endswith("/"):
            folder = key[:-1]
            index = posixpath.join(folder, "index.md") if folder else "index.md"
            # a folder named with an index names the index too, only when it exists
            if self.walk.reach.knows(index):
                if index in self.opened:
                    return None
                return _Candidate(index, READFILE, described)
            if key in self.opened:
                return None
            return _Candidate(folder, LISTDIR, described)
        if key in self.opened:
            return None
        role = role_of(key)
        if role == "index":
            return _Candidate(key, READFILE, True)
        if role != "document":
            return None
        return _Candidate(key, READFILE, described)

    @staticmethod
    def _is_document(path: str) -> bool:
        return role_of(path) == "document"

    # -- answering ----------------------------------------------------------------------

    def _judge(self, path: str) -> bool:
        """How well the document just read answers: the largest share of the question's
        words that one of its sections holds (0 when unread). A section, not the whole
        body: an answer is a passage, and a long document holds most common words
        somewhere without answering anything."""
        step = self.walk.steps[-1]
        if not step.ok or not self.terms:
            return False
        best = best_passage(step.text, self.terms)
        if best is None:
            return False
        number, found = best
        held = concepts_found(self.concepts, found)
        share = held / len(self.concepts)
        if self.best is None or share > self.best[0]:
            plain = passages(step.text, context=False)
            section = plain[number] if number < len(plain) else ""
            self.best = (share, path, _best_sentence(section, found))
        return answers(held, len(self.concepts), self.nav.answer_share)

    def _answer(self) -> str:
        if self.best is None:
            return ""
        _, path, sentence = self.best
        return f"{sentence} (from {path})" if sentence else f"See {path}."


def _describes(reveal: Reveal) -> bool:
    """Whether a reveal tells what its target holds (no need to peek): an index entry
    with a description, or a line of prose naming the path (SKILL.md's entry points)."""
    if reveal.how == ENTRY:
        return " - " in reveal.cue
    return reveal.how == MENTION and reveal.cue != reveal.path and len(words(reveal.cue)) >= 3


def best_passage(text: str, terms: list[str]) -> tuple[int, list[str]] | None:
    """The passage of a document's ``text`` holding most of the question's ``terms``
    (the first of equals): its number and the terms it holds; ``None`` when none does."""
    table = LexicalIndex(("text",))
    try:
        table.add_many((str(i), (section,)) for i, section in enumerate(passages(text)))
        hits = table.hits(terms)
    finally:
        table.close()
    if not hits:
        return None
    key, found = max(hits.items(), key=lambda kv: (len(kv[1]), -int(kv[0])))
    return int(key), found


def _best_sentence(section: str, found: list[str]) -> str:
    """The sentence of ``section`` holding most of the words found (the first on a tie)."""
    wanted = {w[:5] for w in found}
    best, best_hits = "", 0
    for paragraph in section.split("\n\n"):
        line = " ".join(paragraph.split())
        if not line or line.startswith(("#", "|", "```", "<", "---")):
            continue
        for sentence in _SENTENCE.split(line):
            hits = len(wanted & {w[:5] for w in words(sentence)})
            if hits > best_hits:
                best, best_hits = sentence, hits
    return best[:300]
