"""Two real processes editing one package at the same instant, trial after trial.

Shared by the suite (``test_concurrency.py``, a few dozen trials) and the stress
benchmark (``benchmarks/bench_writers.py``, hundreds). Each trial: the parent puts the
package's files back to their original bytes; both workers open the package (as two
kas-tui processes would: the TUI and a CLI, or two TUIs), meet at a barrier, and make
their edit through the editing API at the same instant; each says whether it was saved
or got the "changed on disk" conflict. The parent then reads the file and judges the
trial: an edit reported as saved but missing from the file is a **lost update**.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing as mp
import os
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

#: What the two workers do at the same instant (worker 0 / worker 1):
#: frontmatter: title / description of one document; index: the descriptions of two
#: entries of one index.md; log: an entry each in log.md (both must land); skill: two
#: fields of SKILL.md; fix: ``kas-tui check --agent-ready --fix`` listing a document / an entry's
#: description set through the editing API (the TUI's path); import: ``kas-tui import``
#: into the bundle / the same entry edit. Against a command, the editing worker starts
#: its write when the command is about to write index.md (``at_write``).
SCENARIOS = ("frontmatter", "index", "log", "skill", "fix", "import")
DOC = "incidents/severity-levels.md"
INDEX = "incidents/index.md"
UNLISTED = "incidents/tabletop-exercises.md"
IMPORTED = "incidents/tabletop-notes.md"
UNLISTED_TEXT = """\
---
type: Guide
title: Tabletop exercises
description: How the on-call team rehearses a SEV1 twice a year with a scripted outage and a timed debrief.
---

# Tabletop exercises

Twice a year the on-call team rehearses a SEV1.
"""
IMPORT_TEXT = "# Tabletop notes\n\nNotes from the spring tabletop: the pager fired late.\n"


@dataclass
class Tally:
    """The outcomes of a run of trials."""

    trials: int = 0
    lost: int = 0  # an edit reported saved but not in the file
    both_saved: int = 0
    one_conflict: int = 0
    errors: list[str] = field(default_factory=list)
    outcomes: Counter = field(default_factory=Counter)

    def __str__(self) -> str:
        return (
            f"{self.trials} trials: {self.lost} lost updates, {self.both_saved} with both "
            f"saved, {self.one_conflict} with one conflict, {len(self.errors)} errors"
        )


def _marker(scenario: str, worker: int, trial: int) -> str:
    return f"{scenario} edit {trial} by worker {worker}"


def _edit(root: Path, scenario: str, worker: int, trial: int, barrier, at_write) -> str:
    """Open the package, wait for the other worker, make this worker's edit.

    Against a command (fix, import), the editing worker also waits at ``at_write``,
    which the command reaches when it is about to write index.md: both writes of that
    file then start at the same instant, as in the other scenarios.
    """
    from kas_tui.core import editing
    from kas_tui.core.package import Package
    from kas_tui.core.store import ConflictError

    if scenario in ("fix", "import") and worker == 0:
        barrier.wait()
        return _run_cli(root, scenario, at_write)
    pkg = Package.open(root)
    text = _marker(scenario, worker, trial)
    barrier.wait()
    if scenario in ("fix", "import"):
        at_write.wait(timeout=60)
    try:
        if scenario in ("fix", "import"):
            entry = pkg.indexes["incidents"].index.entries[0]
            editing.set_entry(pkg, INDEX, entry.line, description=text)
        elif scenario == "frontmatter":
            editing.set_field(pkg, DOC, "title" if worker == 0 else "description", text)
        elif scenario == "index":
            entry = pkg.indexes["incidents"].index.entries[worker]
            editing.set_entry(pkg, INDEX, entry.line, description=text)
        elif scenario == "log":
            editing.append_log(pkg, "Update", text)
        elif scenario == "skill":
            key = "description" if worker == 0 else "license"
            editing.set_field(pkg, "SKILL.md", key, text)
    except ConflictError:
        return "conflict"
    return "saved"


def _run_cli(root: Path, scenario: str, at_write) -> str:
    """Run the command in this process; "conflict" when it refused a changed file."""
    from kas_tui.cli import main as cli
    from kas_tui.core.store import Store

    apply = Store.apply
    index = os.path.realpath(root / INDEX)
    met = []

    def meet_then_apply(self, path, *args, **kwargs):  # the command's write of index.md
        if not met and os.path.realpath(path) == index:
            met.append(True)
            at_write.wait(timeout=60)
        return apply(self, path, *args, **kwargs)

    err = io.StringIO()
    Store.apply = meet_then_apply
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = _command(root, scenario, cli)
    finally:
        Store.apply = apply
    if "changed on disk" in err.getvalue():
        return "conflict"
    if scenario == "import" and code != 0:
        return f"error: import exited {code}: {err.getvalue().strip()}"
    return "saved"


def _command(root: Path, scenario: str, cli) -> int:
    if scenario == "fix":
        return cli.main(["check", "--agent-ready", "--fix", str(root)])
    source = root.parent / "tabletop-notes.md"
    return cli.main(["import", str(source), "--into", str(root / "incidents"), "--yes"])


def _worker(
    root: str, scenario: str, worker: int, trials: int, barrier, go, at_write, results
) -> None:
    for trial in range(trials):
        go.wait()  # the parent has reset the files
        try:
            outcome = _edit(Path(root), scenario, worker, trial, barrier, at_write)
        except Exception as exc:  # reported to the parent, which fails the run
            outcome = f"error: {type(exc).__name__}: {exc}"
            barrier.abort()
        results.put((trial, worker, outcome))


def _target(scenario: str) -> str:
    files = {"frontmatter": DOC, "log": "log.md", "skill": "SKILL.md"}
    return files.get(scenario, INDEX)


def _snapshot(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _reset(root: Path, snapshot: dict[Path, bytes]) -> None:
    """Put every file back as it was, and remove the files a trial made."""
    for path in root.rglob("*"):
        if path.is_file() and path not in snapshot:
            path.unlink()
    for path, data in snapshot.items():
        if path.read_bytes() != data:
            path.write_bytes(data)


def _marker_in(scenario: str, worker: int, trial: int, text: str) -> bool:
    if scenario == "fix" and worker == 0:
        return "tabletop-exercises.md" in text
    if scenario == "import" and worker == 0:
        return "tabletop-notes.md" in text
    return _marker(scenario, worker, trial) in text


def run(root: Path, scenario: str, trials: int) -> Tally:
    """Run ``trials`` two-writer trials of ``scenario`` on the package at ``root``."""
    ctx = mp.get_context("fork")
    if scenario == "fix":
        (root / UNLISTED).write_text(UNLISTED_TEXT, encoding="utf-8")
    if scenario == "import":
        (root.parent / "tabletop-notes.md").write_text(IMPORT_TEXT, encoding="utf-8")
    target = root / _target(scenario)
    snapshot = _snapshot(root)
    barrier, go, at_write = ctx.Barrier(2), ctx.Barrier(3), ctx.Barrier(2)
    results = ctx.Queue()
    workers = [
        ctx.Process(
            target=_worker, args=(str(root), scenario, w, trials, barrier, go, at_write, results)
        )
        for w in (0, 1)
    ]
    for proc in workers:
        proc.start()
    tally = Tally()
    try:
        for trial in range(trials):
            _reset(root, snapshot)
            go.wait(timeout=60)
            outcomes = {}
            for _ in (0, 1):
                got_trial, worker, outcome = results.get(timeout=60)
                assert got_trial == trial
                outcomes[worker] = outcome
            _judge(tally, scenario, trial, outcomes, target.read_text(encoding="utf-8"))
    finally:
        for proc in workers:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
        _reset(root, snapshot)
    return tally


def _judge(tally: Tally, scenario: str, trial: int, outcomes: dict[int, str], text: str) -> None:
    tally.trials += 1
    tally.outcomes.update(outcomes.values())
    errors = [o for o in outcomes.values() if o.startswith("error")]
    if errors:
        tally.errors.extend(errors)
        return
    saved = [w for w, o in outcomes.items() if o == "saved"]
    for worker in saved:
        if not _marker_in(scenario, worker, trial, text):
            tally.lost += 1
    if len(saved) == 2:
        tally.both_saved += 1
    elif len(saved) == 1:
        tally.one_conflict += 1


def copy_demo(dest: Path) -> Path:
    """A fresh copy of the bundled demo package under ``dest``; returns its root."""
    demo = Path(__file__).resolve().parents[2] / "demo_kb" / "orbit-handbook"
    root = dest / "orbit-handbook"
    shutil.copytree(demo, root)
    return root
