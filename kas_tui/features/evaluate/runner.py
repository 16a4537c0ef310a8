"""A whole evaluation: every question through the navigator, on the package and on each
ablated view of it, the flat baseline beside them, metrics and blame, trajectories saved.

Runs are independent, so the evaluation can be stopped between questions
(``should_stop``) and reports its progress (``progress(done, total)``). Each run's
trajectory is written as ``<out>/<variant>/<question id>.jsonl`` with a header naming the
package, the question and the navigator, and replays in the TUI as it is.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import multiprocessing as mp
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kas_tui.core.user_dirs import data_dir
from kas_tui.core.workers import forking, start_as_worker
from kas_tui.features.agent.sandbox import Sandbox
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry
from kas_tui.features.agent.trajectory import write_trajectory
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET
from kas_tui.features.evaluate.ablation import AblatedSandbox
from kas_tui.features.evaluate.blame import (
    Blame,
    BlameSummary,
    PathFinder,
    blame_run,
    summarise_blame,
)
from kas_tui.features.evaluate.flat_baseline import RECALL_AT, FlatBaseline, Retrieval, recall
from kas_tui.features.evaluate.metrics import WITHIN, Overall, by_bundle, overall
from kas_tui.features.evaluate.navigator import LexicalNavigator
from kas_tui.features.evaluate.runs import Question, Run, run_header

if TYPE_CHECKING:
    from kas_tui.core.package import Package

FULL = "full"


class Navigator(Protocol):
    name: str

    def run(self, question: Question) -> Run: ...


#: Makes the navigator for one view of the package: (package, sandbox, catalog) -> it.
NavigatorFactory = Callable[["Package", Sandbox, CatalogEntry], Navigator]


def lexical_factory(*, budget: int = DEFAULT_BUDGET, peek: bool = True) -> NavigatorFactory:
    def make(package: Package, sandbox: Sandbox, catalog: CatalogEntry) -> Navigator:
        return LexicalNavigator(sandbox, catalog, budget=budget, peek=peek)

    return make


@dataclass
class Variant:
    """The runs on one view of the package: ``full``, or a layer taken away."""

    name: str
    runs: list[Run]
    overall: Overall
    bundles: dict[str, Overall]
    blames: list[Blame]
    blame: BlameSummary
    seconds: float = 0.0  # the runs' time (blame and metrics not counted)

    @property
    def ablated(self) -> str | None:
        return None if self.name == FULL else self.name


@dataclass
class Evaluation:
    """Everything one ``kas-tui eval`` measured."""

    package: str
    root: str
    questions_source: str
    navigator: str
    budget: int
    within: int
    variants: list[Variant]
    flat: list[Retrieval]
    date: str
    seconds: float = 0.0
    flat_seconds: float = 0.0
    out_dir: str | None = None
    stopped: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def main(self) -> Variant:
        return self.variants[0]

    @property
    def recall(self) -> dict[int, float]:
        return {k: recall(self.flat, k) for k in RECALL_AT}


def evaluate(
    package: Package,
    questions: Sequence[Question],
    *,
    factory: NavigatorFactory | None = None,
    ablations: Sequence[str] = (),
    budget: int = DEFAULT_BUDGET,
    within: int = WITHIN,
    out_dir: str | os.PathLike[str] | None = None,
    questions_source: str = "",
    progress: Callable[[int, int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    workers: int = 1,
) -> Evaluation:
    """Run ``questions`` on ``package`` (and each ablation), with the flat baseline.

    ``workers`` above 1 runs the questions in that many forked processes (where the
    platform forks; the runs come back in question order, the same as in one process).
    Only for a caller with no other threads running: the CLI, not the TUI.
    """
    started = time.perf_counter()
    factory = factory or lexical_factory(budget=budget)
    catalog = catalog_entry(package)
    paths = PathFinder(package)
    names = [FULL, *ablations]
    total = len(questions) * len(names)
    done = 0
    measured: list[tuple[str, list[Run], float]] = []  # each variant's runs and their time
    navigator_name = ""
    stopped = False
    date = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    for name in names:
        sandbox: Sandbox
        if name == FULL:
            sandbox = Sandbox(package.root, location=catalog.location)
        else:
            sandbox = AblatedSandbox(package, name, location=catalog.location)
        variant_started = time.perf_counter()
        navigator = factory(package, sandbox, catalog)
        navigator_name = navigator_name or navigator.name
        runs: list[Run] = []
        for run in _runs(navigator, questions, workers, should_stop):
            runs.append(run)
            if out_dir is not None:
                extra = {"ablated": name} if name != FULL else {}
                save_run(out_dir, name, package.name, run, date, **extra)
            done += 1
            if progress is not None:
                progress(done, total)
        stopped = len(runs) < len(questions)
        measured.append((name, runs, time.perf_counter() - variant_started))
        if stopped:
            break
    return scored_evaluation(
        package,
        questions,
        measured,
        navigator=navigator_name,
        questions_source=questions_source,
        budget=budget,
        within=within,
        date=date,
        started=started,
        out_dir=out_dir,
        paths=paths,
        stopped=stopped,
    )


def scored_evaluation(
    package: Package,
    questions: Sequence[Question],
    measured: Sequence[tuple[str, list[Run], float]],
    *,
    navigator: str,
    questions_source: str | None,
    budget: int,
    within: int,
    date: dt.datetime,
    started: float,
    out_dir: str | os.PathLike[str] | None,
    paths: PathFinder | None = None,
    stopped: bool = False,
) -> Evaluation:
    """The :class:`Evaluation` of runs already made (``measured``: variant name, runs,
    seconds), scored beside the flat baseline: one home for what a report says, whether
    a navigator walked the questions or served sessions are replayed."""
    variants, flat, flat_seconds = score(package, questions, measured, within, paths)
    return Evaluation(
        package=package.name,
        root=str(package.root),
        questions_source=questions_source,
        navigator=navigator,
        budget=budget,
        within=within,
        variants=variants,
        flat=flat,
        date=date.isoformat().replace("+00:00", "Z"),
        seconds=time.perf_counter() - started - flat_seconds,
        flat_seconds=flat_seconds,
        out_dir=os.fspath(out_dir) if out_dir is not None else None,
        stopped=stopped,
    )


def score(
    package: Package,
    questions: Sequence[Question],
    measured: Sequence[tuple[str, list[Run], float]],
    within: int = WITHIN,
    paths: PathFinder | None = None,
) -> tuple[list[Variant], list[Retrieval], float]:
    """Each variant's figures and blame from its runs (``(name, runs, seconds)``), the
    flat baseline's retrievals of ``questions`` and the seconds they took."""
    paths = paths or PathFinder(package)
    variants: list[Variant] = []
    flat_started = time.perf_counter()
    baseline = FlatBaseline(package)
    try:
        flat = [baseline.retrieve(q) for q in questions]
        flat_seconds = time.perf_counter() - flat_started
        # blame names a question's rarest missing words first: rarity in the bodies
        for name, runs, seconds in measured:
            found = (blame_run(r, paths, within, baseline.frequencies) for r in runs)
            blames = [b for b in found if b is not None]
            summary = summarise_blame(runs, blames)
            figures = overall(runs, within), by_bundle(runs, within)
            variants.append(Variant(name, runs, *figures, blames, summary, seconds))
    finally:
        baseline.close()
    return variants, flat, flat_seconds


def save_run(
    out_dir: str | os.PathLike[str],
    variant: str,
    package_name: str,
    run: Run,
    date: dt.datetime,
    **header: object,
) -> None:
    """Write ``run``'s trajectory as ``<out_dir>/<variant>/<question id>.jsonl``, its
    header holding ``header`` beside the run's own fields."""
    target = Path(out_dir) / variant / f"{safe_name(run.question.id)}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    write_trajectory(target, run.steps, {**run_header(package_name, run, date=date), **header})


#: The navigator a forked worker runs (set in the parent just before it forks).
_FORKED: Navigator | None = None
#: Questions a worker takes at a time: small enough for steady progress.
_CHUNK = 16


def _run_chunk(chunk: list[Question]) -> list[Run]:
    assert _FORKED is not None
    return [_FORKED.run(q) for q in chunk]


def _runs(
    navigator: Navigator,
    questions: Sequence[Question],
    workers: int,
    should_stop: Callable[[], bool] | None,
) -> Iterator[Run]:
    """Each question's run, in order, until ``should_stop`` says so. A navigator that
    runs questions itself (``runs``: a real agent's CLI, in threads) is left to."""
    stop = should_stop or (lambda: False)
    many = getattr(navigator, "runs", None)
    if callable(many):
        yield from many(questions, workers, stop)
        return
    if workers <= 1 or len(questions) < 2 * _CHUNK or "fork" not in mp.get_all_start_methods():
        for question in questions:
            if stop():
                return
            yield navigator.run(question)
        return
    global _FORKED
    _FORKED = navigator
    chunks = [list(questions[i : i + _CHUNK]) for i in range(0, len(questions), _CHUNK)]
    with forking():
        pool = mp.get_context("fork").Pool(workers, initializer=start_as_worker)
    try:
        for runs in pool.imap(_run_chunk, chunks):
            if stop():
                return
            yield from runs
    finally:
        pool.terminate()
        pool.join()
        _FORKED = None


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(text: str) -> str:
    """A file name for a question id (``q/1`` -> ``q_1``; never empty, never hidden)."""
    name = _UNSAFE.sub("_", text).strip("._") or "question"
    return name[:100]


def evals_home(root: str | os.PathLike[str]) -> Path:
    """Where evaluations of the package at ``root`` are kept in the user data folder."""
    real = os.path.realpath(root)
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return data_dir() / "evals" / f"{safe_name(os.path.basename(real))}-{digest}"


def new_eval_dir(root: str | os.PathLike[str]) -> Path:
    """A fresh folder for one evaluation of ``root`` (named by the time it starts)."""
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    return evals_home(root) / stamp


def latest_eval_dir(root: str | os.PathLike[str]) -> Path | None:
    """The newest evaluation folder of ``root`` holding a report, or ``None``."""
    home = evals_home(root)
    try:
        folders = sorted((p for p in home.iterdir() if (p / "report.json").is_file()), reverse=True)
    except OSError:
        return None
    return folders[0] if folders else None
