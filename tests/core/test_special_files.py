"""Never hang on what is not a regular file (issue "Never hang, never half-write", item 1).

A named pipe (FIFO) called ``notes.md`` blocks whoever opens it to read until a writer
comes: it used to hang ``check``, ``check --fix``, ``import``, ``build``, ``install``,
``serve`` and the TUI. Anything that is neither a regular file nor a folder (a pipe, a
socket, a device, or a symlink to one) is now never opened: the walk lists it nowhere,
and it is a finding (OKF124) naming the file and what it is.

The CLI runs in a subprocess under a time limit; in-process tests run under a
:class:`~tests.helpers.special_files.PipeWatch`, so a regression fails instead of hanging.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import kas_tui.tui.app as app_module
from kas_tui.core.disk import walk
from kas_tui.core.loader import read_document
from kas_tui.core.package import Package
from kas_tui.features.check import check
from tests.helpers.special_files import PipeWatch, bind_socket
from tests.helpers.waiting import pilot_wait_until

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb"
TODAY = dt.date(2026, 11, 30)
#: A CLI run that takes longer has hung (a check of the demo takes well under a second).
LIMIT = 60
PIPE = "incidents/notes.md"
SAID = "a named pipe (FIFO), not a regular file: never opened"


@pytest.fixture
def pipes():
    watch = PipeWatch()
    yield watch
    watch.close()
    assert watch.opened == [], "a named pipe was opened"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    return tmp_path / "demo_kb" / "orbit-handbook"


def _cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``kas-tui ARGS`` in a subprocess; one that runs past :data:`LIMIT` fails the test."""
    return subprocess.run(
        [sys.executable, "-m", "kas_tui", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        check=False,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _clean(result: subprocess.CompletedProcess[str]) -> None:
    """No traceback and no raw control character in what the command printed."""
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream, stream
        assert not [c for c in stream if not c.isprintable() and c != "\n"], repr(stream)


# -- the one rule: what is it, and may it be opened --------------------------------------


def test_each_kind_of_special_file_is_named() -> None:
    from kas_tui.core.fileio import special_kind

    assert special_kind(stat.S_IFIFO | 0o644) == "named pipe (FIFO)"
    assert special_kind(stat.S_IFSOCK | 0o755) == "socket"
    assert special_kind(stat.S_IFCHR | 0o600) == "character device"
    assert special_kind(stat.S_IFBLK | 0o600) == "block device"
    assert special_kind(stat.S_IFREG | 0o644) is None
    assert special_kind(stat.S_IFDIR | 0o755) is None


def test_the_walk_lists_no_pipe_socket_or_device_and_says_what_each_is(
    root: Path, pipes: PipeWatch
) -> None:
    pipes.mkfifo(root / PIPE)
    pipes.mkfifo(root / "fifo-asset.csv")
    os.symlink("../fifo-asset.csv", root / "oncall" / "alias.md")  # in the package, to a pipe
    pipes.mkfifo(root / "incidents" / ".notes.md.abcd1234.kas-tmp")  # named like our temps
    sock = bind_socket(root / "slos", "socket.md")
    try:
        made_device = True
        try:
            os.mknod(root / "zero.md", stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero
        except (PermissionError, OSError):
            made_device = False  # not allowed here: the unit test above names it
        found = walk(root, stat=True)
        listed = [
            *found.documents,
            *found.assets,
            *found.indexes,
            *found.logs,
            *found.folders,
            *map(os.path.basename, found.temps),
        ]
        specials = {p.path: p.message for p in found.problems if p.code == "special-file"}
        assert f"{SAID}; remove it from the package" == specials[PIPE]
        assert specials["fifo-asset.csv"].startswith("a named pipe (FIFO)")
        assert specials["oncall/alias.md"].startswith("a named pipe (FIFO)")
        assert specials["slos/socket.md"].startswith("a socket, not a regular file")
        expected = {PIPE, "fifo-asset.csv", "oncall/alias.md", "slos/socket.md"}
        if made_device:
            assert specials["zero.md"].startswith("a character device, not a regular file")
            expected.add("zero.md")
        assert set(specials) == expected
        assert not expected & set(listed)
        assert ".notes.md.abcd1234.kas-tmp" not in listed  # never swept as a stale temp
        package = Package.open(root, scan=True, cache=True)  # the loader sweeps temps too
        report = check(package, agent_ready=True, today=TODAY)
        okf124 = {f.path: f for f in report.findings if f.code == "OKF124"}
        assert set(okf124) == expected
        assert all(f.severity == "warning" for f in okf124.values())
        assert (root / "incidents" / ".notes.md.abcd1234.kas-tmp").exists()
    finally:
        sock.close()


def test_a_file_swapped_for_a_pipe_after_the_walk_is_refused_unread(
    root: Path, pipes: PipeWatch
) -> None:
    from kas_tui.core.fileio import NotRegularFile, read_regular

    doc = "incidents/severity-levels.md"
    package = Package.open(root)
    (root / doc).unlink()
    pipes.mkfifo(root / doc)
    read = read_document(root, doc)  # as a worker reading the walk's list would
    assert [(p.code, p.message) for p in read.problems] == [
        ("special-file", f"{SAID}; remove it from the package")
    ]
    with pytest.raises(NotRegularFile, match="named pipe"):
        package.read_for_edit(doc)  # an editor opening it
    with pytest.raises(NotRegularFile):
        read_regular(root / doc)
    package.reload_file(doc)  # what live reload does with a modified file
    assert doc not in package.documents
    assert [p.path for p in package.problems if p.code == "special-file"] == [doc]


# -- every entry point: a pipe in the package never hangs it ------------------------------


@pytest.mark.parametrize(
    "options",
    [[], ["--agent-ready"], ["--fix"], ["--agent-ready", "--fix"], ["--no-cache"]],
    ids=["check", "agent-ready", "fix", "agent-ready-fix", "no-cache"],
)
def test_check_reports_the_pipe_and_does_not_hang(root: Path, options: list[str]) -> None:
    os.mkfifo(root / PIPE)
    result = _cli("check", *options, root)
    assert result.returncode == 0, result.stderr
    assert f"{PIPE}: OKF124 warning {SAID}; remove it from the package" in result.stdout
    _clean(result)


def test_a_pipe_named_with_a_terminal_escape_is_printed_escaped(root: Path) -> None:
    os.mkfifo(root / "incidents" / "red\x1b[31m.md")
    result = _cli("check", root)
    assert "incidents/red\\x1b[31m.md: OKF124 warning a named pipe" in result.stdout
    _clean(result)


def test_check_given_the_pipe_itself_says_what_it_is(root: Path) -> None:
    os.mkfifo(root / PIPE)
    result = _cli("check", root / PIPE)
    assert result.returncode == 2
    assert result.stderr == (
        f"kas-tui check: {root / PIPE}: a named pipe (FIFO), not a folder (it is never "
        f"opened); give its package's folder, {root}\n"
    )
    _clean(result)


def test_import_into_a_package_holding_a_pipe(root: Path, tmp_path: Path) -> None:
    os.mkfifo(root / PIPE)
    source = tmp_path / "pager-notes.md"
    source.write_text("# Pager notes\n\nWho carries the pager on public holidays.\n")
    result = _cli("import", source, "--into", root / "incidents", "--yes")
    assert result.returncode == 0, result.stderr
    assert "1 imported." in result.stderr
    assert (root / "incidents" / "pager-notes.md").is_file()
    assert stat.S_ISFIFO(os.stat(root / PIPE).st_mode)  # left as it was
    _clean(result)


def test_import_of_a_pipe_is_refused_in_one_line(root: Path, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "live.md")
    before = sorted(p.name for p in (root / "oncall").iterdir())
    result = _cli("import", tmp_path / "live.md", "--into", root / "oncall")
    assert result.returncode == 2
    assert result.stderr == (
        f"kas-tui import: {tmp_path / 'live.md'}: {SAID}; import regular files\n"
    )
    assert sorted(p.name for p in (root / "oncall").iterdir()) == before
    _clean(result)


def test_the_import_wizard_names_a_pipe_it_is_given(tmp_path: Path, pipes: PipeWatch) -> None:
    from kas_tui.features.importing.files import files_in, parse_paths

    pipes.mkfifo(tmp_path / "live.md")
    (tmp_path / "notes.md").write_text("# Notes\n")
    found, problems = parse_paths("live.md, notes.md", tmp_path)
    assert found == [tmp_path / "notes.md"]
    assert problems == [f"live.md: {SAID}"]
    assert files_in(tmp_path) == [tmp_path / "notes.md"]


def test_build_skips_a_pipe_in_its_source_and_says_so(tmp_path: Path) -> None:
    source = tmp_path / "docs"
    (source / "guides").mkdir(parents=True)
    (source / "guides" / "setup.md").write_text("# Setup\n\nHow to set the desk up.\n")
    os.mkfifo(source / "guides" / "live.md")
    out = tmp_path / "desk-kb"
    result = _cli("build", source, out, "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert f"  note: guides/live.md: {SAID}; skipped\n" in result.stderr
    assert [p.name for p in out.rglob("setup.md")] == ["setup.md"]
    assert not list(out.rglob("live*"))
    _clean(result)


def test_install_leaves_the_pipe_out_of_the_copy_and_says_so(root: Path, tmp_path: Path) -> None:
    os.mkfifo(root / PIPE)
    project = tmp_path / "project"
    project.mkdir()
    result = _cli("install", root, "--for", "claude", "--project", project)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (  # the demo's own questions are kept from agents too
        "kas-tui install: skipped evals/: the package's question set, with its answers: "
        "never given to an agent, not copied; kas-tui eval reads it from the package\n"
        f"kas-tui install: skipped {PIPE}: {SAID}, not copied; remove it from the package\n"
    )
    target = project / ".claude" / "skills" / "orbit-handbook"
    assert (target / "incidents" / "index.md").is_file()
    assert not os.path.lexists(target / PIPE)
    listed = _cli("installed", "--project", project)
    assert "behind" not in listed.stdout  # the copy's digest never read the pipe either
    _clean(result)


def test_serve_answers_initialize_and_never_opens_the_pipe(
    root: Path, tmp_path: Path, pipes: PipeWatch
) -> None:
    from mcp.types import LATEST_PROTOCOL_VERSION

    pipes.mkfifo(root / PIPE)
    process = subprocess.Popen(
        [sys.executable, "-m", "kas_tui", "serve", str(root), "--log-dir", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    killer = threading.Timer(LIMIT, process.kill)  # a server that never answers fails
    killer.start()

    def call(number: int, tool: str, path: str) -> dict:
        arguments = {"name": tool, "arguments": {"path": path}}
        return {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": arguments}

    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": LATEST_PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "pipe-test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        call(2, "listdir", "incidents"),
        call(3, "readfile", PIPE),
        call(4, "peek", PIPE),
    ]
    answers: dict = {}
    try:
        process.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
        process.stdin.flush()
        while not {1, 2, 3, 4} <= set(answers):
            line = process.stdout.readline()
            assert line, "the server went away: " + process.stderr.read()[-2000:]
            answer = json.loads(line)
            answers[answer.get("id")] = answer
        process.stdin.close()
        err = process.stderr.read()
        process.wait(timeout=LIMIT)
    finally:
        killer.cancel()
        process.kill()
    assert "result" in answers[1], answers[1]
    listing = answers[2]["result"]["content"][0]["text"]
    assert "severity-levels.md" in listing and "notes.md" not in listing
    for number in (3, 4):
        assert answers[number]["result"]["isError"], answers[number]
    assert "Traceback" not in err


# -- the TUI -----------------------------------------------------------------------------


async def test_the_tui_opens_the_package_and_shows_the_finding(
    root: Path, pipes: PipeWatch
) -> None:
    from kas_tui.core.disk import locate
    from kas_tui.tui.widgets.findings import FindingsPanel
    from kas_tui.tui.widgets.nav_tree import NavTree

    pipes.mkfifo(root / PIPE)
    app = app_module.open_app(locate(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: app.location == "SKILL.md")
        tree = app.query_one(NavTree)
        assert len(tree.root.children) == 6  # the six bundles: the package is shown
        said = [text for _, text in app.messages]
        assert f"{PIPE}: {SAID}; remove it from the package" in said
        await pilot.press("v")
        panel = app.query_one(FindingsPanel)
        await pilot_wait_until(pilot, lambda: panel.findings)
        assert ("OKF124", PIPE) in {(f.code, f.path) for f in panel.findings}


async def test_live_reload_never_opens_a_pipe_made_while_the_app_runs(
    root: Path, pipes: PipeWatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "WATCH_INTERVAL", 0.05)
    doc = "incidents/severity-levels.md"
    app = app_module.KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot_wait_until(pilot, lambda: app.reloader.watcher is not None)

        def flagged(path: str) -> bool:
            return any(p.path == path and p.code == "special-file" for p in app.package.problems)

        pipes.mkfifo(root / PIPE)  # a new file
        await pilot_wait_until(pilot, lambda: flagged(PIPE))
        (root / doc).unlink()
        pipes.mkfifo(root / doc)  # a document replaced by a pipe
        await pilot_wait_until(pilot, lambda: flagged(doc))
        assert doc not in app.package.documents
        assert PIPE not in app.package.documents
