"""``kas-tui check`` on the command line: output formats, exit codes, options, the cache.

Every test runs with ``KAS_TUI_CACHE_DIR`` pointing into its own ``tmp_path`` (an
autouse fixture), so no test reads or writes the user's cache.
"""

# ruff: noqa: E501  (descriptions are one long line each)

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kas_tui
from kas_tui.cli.main import main
from kas_tui.core import loader
from kas_tui.core import package as package_module
from kas_tui.features.check import BY_CODE, RULES
from kas_tui.features.check.rules_page import rules_markdown
from tests.helpers.check import doc, write_package

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb"

FINDING_LINE = re.compile(
    r"^(?P<path>[^:]+?)(?::(?P<line>\d+))?: (?P<code>(?:OKF|KAS)\d{3}) "
    r"(?P<severity>error|warning|info) (?P<message>.+)$"
)
SUMMARY_LINE = re.compile(
    r"^(?P<profile>okf|agent-ready) check of (?P<root>.+) \(today (?P<today>\d{4}-\d{2}-\d{2})\): "
    r"(?P<documents>[\d,]+) documents?, (?P<errors>[\d,]+) errors?, "
    r"(?P<warnings>[\d,]+) warnings?, (?P<infos>[\d,]+) infos?"
    r"(?:, (?P<fixed>[\d,]+) fix(?:es)? applied)? in \d+\.\d\d s$"
)


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(folder))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return folder


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """``kas-tui check ARGV``: (exit code, stdout, stderr). argparse errors exit with 2."""
    try:
        code = main(["check", *map(str, argv)])
    except SystemExit as exc:  # argparse refuses the command line
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, dict]:
    code, out, err = cli(capsys, *argv, "--format", "json")
    return code, json.loads(out)


def finding_codes(data: dict) -> set[str]:
    return {f["code"] for f in data["findings"]}


def messy_package(tmp_path: Path) -> Path:
    """Findings in three files: with and without lines, of every severity."""
    return write_package(
        tmp_path,
        {
            "guide.md": doc(extra="tags: onboarding", body="See [the FAQ](/faq.md).\n"),
            "log.md": "# Update log\n\n## 30 November\n* **Update**: Revised.\n",
            "My Notes.md": doc(title="My notes"),
        },
    )


# --- text format --------------------------------------------------------------------------------


def test_text_format_lines_grouped_by_file_then_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = messy_package(tmp_path)
    code, out, err = cli(capsys, root, "--today", "2026-12-01")
    assert code == 1
    assert "\x1b[" not in out, "no colour when stdout is not a terminal"
    lines = out.rstrip("\n").split("\n")
    summary = SUMMARY_LINE.match(lines[-1])
    assert summary, lines[-1]
    assert summary["profile"] == "okf"
    assert summary["root"] == str(root)
    assert summary["today"] == "2026-12-01"
    assert (summary["documents"], summary["errors"], summary["warnings"], summary["infos"]) == (
        "2",
        "1",
        "2",
        "1",
    )
    assert lines[-2] == "", "a blank line before the summary"

    body = lines[:-2]
    findings = [FINDING_LINE.match(line) for line in body if line]
    assert all(findings), body
    assert [(m["path"], m["line"], m["code"], m["severity"]) for m in findings] == [
        ("My Notes.md", None, "OKF131", "info"),
        ("guide.md", "5", "OKF101", "warning"),
        ("guide.md", "8", "OKF120", "warning"),
        ("log.md", "3", "OKF006", "error"),
    ]
    # one group per file, separated by one blank line
    groups = "\n".join(body).split("\n\n")
    assert [{FINDING_LINE.match(x)["path"] for x in g.split("\n")} for g in groups] == [
        {"My Notes.md"},
        {"guide.md"},
        {"log.md"},
    ]
    assert out.endswith("\n") and not err


def test_text_format_of_a_clean_package_is_the_summary_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, write_package(tmp_path), "--agent-ready", "--today", "2026-12-01")
    assert code == 0
    lines = out.rstrip("\n").split("\n")
    assert len(lines) == 1
    summary = SUMMARY_LINE.match(lines[0])
    assert summary and summary["profile"] == "agent-ready"
    assert (summary["documents"], summary["errors"], summary["warnings"], summary["infos"]) == (
        "1",
        "0",
        "0",
        "0",
    )


def test_hints_print_the_fix_under_each_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_package(tmp_path, {"guide.md": doc(extra="tags: onboarding")})
    code, out, _ = cli(capsys, root, "--hints")
    lines = out.split("\n")
    assert lines[0].startswith("guide.md:5: OKF101 warning ")
    assert lines[1] == "    fix: Write tags as a list: 'tags: [billing, refunds]'."


# --- JSON format --------------------------------------------------------------------------------


def test_json_format_matches_the_documented_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = messy_package(tmp_path)
    code, data = cli_json(capsys, root, "--today", "2026-12-01")
    assert code == 1
    assert set(data) == {
        "tool",
        "version",
        "schema",
        "root",
        "profile",
        "today",
        "summary",
        "findings",
    }
    assert data["tool"] == "kas-tui"
    assert data["version"] == kas_tui.__version__
    assert data["schema"] == 1
    assert data["root"] == str(root)
    assert data["profile"] == "okf"
    assert data["today"] == "2026-12-01"
    summary = data["summary"]
    assert set(summary) == {"documents", "errors", "warnings", "infos", "seconds", "fixed"}
    assert summary["documents"] == 2
    assert isinstance(summary["seconds"], (int, float)) and summary["seconds"] >= 0
    assert summary["fixed"] == 0
    for key, severity in (("errors", "error"), ("warnings", "warning"), ("infos", "info")):
        assert summary[key] == sum(f["severity"] == severity for f in data["findings"])
    assert (summary["errors"], summary["warnings"], summary["infos"]) == (1, 2, 1)
    for finding in data["findings"]:
        assert set(finding) == {"code", "severity", "path", "line", "message", "fix"}
        assert finding["line"] is None or isinstance(finding["line"], int)
        assert isinstance(finding["message"], str) and finding["message"]
        assert isinstance(finding["fix"], str) and finding["fix"]
    assert [(f["path"], f["line"], f["code"]) for f in data["findings"]] == [
        ("My Notes.md", None, "OKF131"),
        ("guide.md", 5, "OKF101"),
        ("guide.md", 8, "OKF120"),
        ("log.md", 3, "OKF006"),
    ]


def test_json_profile_agent_ready(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = cli_json(capsys, write_package(tmp_path), "--agent-ready")
    assert code == 0
    assert data["profile"] == "agent-ready"
    assert data["findings"] == []


# --- exit codes -------------------------------------------------------------------------------


def test_exit_0_when_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, write_package(tmp_path))[0] == 0


def test_exit_1_on_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_package(tmp_path, {"guide.md": doc(type=None)})
    assert cli(capsys, root)[0] == 1
    assert cli(capsys, root, "--strict")[0] == 1


def test_strict_fails_on_warnings_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_package(tmp_path, {"guide.md": doc(body="See [the FAQ](/faq.md).\n")})
    assert cli(capsys, root)[0] == 0
    assert cli(capsys, root, "--strict")[0] == 1


def test_strict_passes_on_infos_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_package(tmp_path, {"guide.md": doc(extra="stale_after: 2026-11-01T00:00:00Z")})
    code, data = cli_json(capsys, root, "--strict", "--today", "2026-12-01")
    assert finding_codes(data) == {"OKF140"}
    assert code == 0


@pytest.mark.parametrize(
    "make_argv",
    [
        pytest.param(lambda root: [root.parent / "missing"], id="missing-path"),
        pytest.param(lambda root: [root / "guide.md"], id="a-file"),
        pytest.param(lambda root: [root.parent / "empty"], id="empty-folder"),
        pytest.param(lambda root: [root, "--dry-run"], id="dry-run-without-fix"),
        pytest.param(lambda root: [root, "--select", "XYZ123"], id="unknown-select"),
        pytest.param(lambda root: [root, "--select", "OKF1,OKF999"], id="unknown-select-in-list"),
        pytest.param(lambda root: [root, "--ignore", "KAS9"], id="unknown-ignore"),
        pytest.param(lambda root: [root, "--today", "2026-13-01"], id="bad-today"),
        pytest.param(lambda root: [root, "--today", "tomorrow"], id="bad-today-word"),
        pytest.param(lambda root: [root, "--format", "xml"], id="bad-format"),
        pytest.param(lambda root: [], id="no-path"),
    ],
)
def test_exit_2_on_usage_and_io_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make_argv
) -> None:
    root = write_package(tmp_path)
    (tmp_path / "empty").mkdir()
    code, out, err = cli(capsys, *make_argv(root))
    assert code == 2
    assert err.strip(), "a usage error says what is wrong on stderr"
    assert out == ""


def test_dry_run_with_fix_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, write_package(tmp_path), "--fix", "--dry-run")[0] == 0


# --- options --------------------------------------------------------------------------------------


def test_select_and_ignore_full_codes_and_prefixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_package(
        tmp_path,
        {
            "guide.md": doc(
                extra="tags: onboarding\nstale_after: 2026-11-30T00:00:00Z", body="[x](/nope.md)\n"
            ),
            "extra.md": doc(
                title="Extra",
                description="Where the office coffee machine is and how to descale it.",
            ),
        },
    )
    today = ("--today", "2026-12-01")
    everything = finding_codes(cli_json(capsys, root, "--agent-ready", *today)[1])
    # guide.md is stale and listed without a note: KAS044
    assert everything == {"OKF101", "OKF120", "OKF140", "KAS031", "KAS043", "KAS044"}
    cases = {
        ("--select", "OKF101"): {"OKF101"},
        ("--select", "OKF1"): {"OKF101", "OKF120", "OKF140"},
        ("--select", "okf12,KAS031"): {"OKF120", "KAS031"},
        ("--select", "KAS"): {"KAS031", "KAS043", "KAS044"},
        ("--ignore", "OKF"): {"KAS031", "KAS043", "KAS044"},
        ("--ignore", "KAS04,OKF140"): {"OKF101", "OKF120", "KAS031"},
        ("--select", "OKF1", "--ignore", "OKF12"): {"OKF101", "OKF140"},
    }
    for options, expected in cases.items():
        code, data = cli_json(capsys, root, "--agent-ready", *today, *options)
        assert finding_codes(data) == expected, options
        assert code == (1 if any(BY_CODE[c].severity == "error" for c in expected) else 0), options
    # agent-ready rules need the profile even when selected by name
    assert finding_codes(cli_json(capsys, root, "--select", "KAS", *today)[1]) == set()


def test_ignored_errors_do_not_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_package(tmp_path, {"guide.md": doc(type=None)})
    assert cli(capsys, root)[0] == 1
    assert cli(capsys, root, "--ignore", "OKF004")[0] == 0


def test_today_changes_staleness(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_package(tmp_path, {"guide.md": doc(extra="stale_after: 2026-12-15")})
    for today, stale in (
        ("2026-12-01", False),
        ("2026-12-14", False),
        ("2026-12-15", True),
        ("2027-03-01", True),
    ):
        code, data = cli_json(capsys, root, "--today", today)
        assert ("OKF140" in finding_codes(data)) is stale, today
        assert data["today"] == today
        assert code == 0


def test_package_found_from_a_skills_folder_and_from_a_subfolder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_package(tmp_path / "skills", {"team/handbook.md": doc(title="Team")})
    for where in (tmp_path / "skills", root / "team"):
        code, data = cli_json(capsys, where)
        assert data["root"] == str(root), where
        assert data["summary"]["documents"] == 2


# --- the demo package -----------------------------------------------------------------------------


def test_demo_package_is_agent_ready(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "demo_kb"
    shutil.copytree(DEMO, copy, symlinks=True)
    code, data = cli_json(capsys, copy, "--agent-ready", "--today", "2026-12-01")
    problems = [
        f"{f['path']}:{f['line']}: {f['code']} {f['message']}"
        for f in data["findings"]
        if f["severity"] != "info"
    ]
    assert data["summary"]["errors"] == 0, problems
    assert data["summary"]["warnings"] == 0, problems
    assert code == 0


# --- what check imports ---------------------------------------------------------------------------


def _run_script(script: str, root: Path, cache_dir: Path) -> subprocess.CompletedProcess:
    """``python -c script PKG`` from the repository, with the test's cache folder."""
    env = {**os.environ, "KAS_TUI_CACHE_DIR": str(cache_dir)}
    return subprocess.run(
        [sys.executable, "-c", script, str(root)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_does_not_import_textual_or_markitdown(tmp_path: Path, cache_dir: Path) -> None:
    root = write_package(tmp_path, {"guide.md": doc(body="See [the FAQ](/faq.md).[^x]\n")})
    script = (
        "import sys\n"
        "from kas_tui.cli.main import main\n"
        "main(['check', sys.argv[1]])\n"
        "main(['check', sys.argv[1], '--agent-ready', '--format', 'json'])\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
        "assert 'markitdown' not in sys.modules, 'markitdown imported'\n"
    )
    result = _run_script(script, root, cache_dir)
    assert result.returncode == 0, result.stderr
    assert "OKF120" in result.stdout


def test_a_check_run_as_the_command_ends_with_its_report_without_tearing_down(
    tmp_path: Path, cache_dir: Path
) -> None:
    """The command's process ends once the report is written, with the check's exit
    code: nothing registered to run at exit runs (freeing a large package object by
    object is left to the system), and the output is whole."""
    root = write_package(tmp_path, {"guide.md": doc(body="See [the FAQ](/faq.md).\n")})
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('torn down', file=sys.stderr))\n"
        "sys.argv = ['kas-tui', 'check', sys.argv[1], '--format', 'json']\n"
        "from kas_tui.cli.main import main\n"
        "raise SystemExit(main())\n"
    )
    result = _run_script(script, root, cache_dir)
    assert "torn down" not in result.stderr
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [f["code"] for f in report["findings"]] == ["OKF120"]
    assert main(["check", str(root), "--format", "json"]) == 0  # called, it returns
    from kas_tui.cli import check as check_command

    assert check_command.KEEP_UNTIL_EXIT is None  # and keeps no package


# --- the metadata cache ---------------------------------------------------------------------------


def _age(root: Path, seconds: float = 3600) -> None:
    """Move every file's mtime into the past: files changed in the last two seconds
    are never trusted from the cache (the racy-git rule)."""
    old = time.time() - seconds
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (old, old))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The documents read from disk (not served by the cache), in order."""
    seen: list[str] = []
    real = package_module.read_documents

    def read_documents(root, paths, **kwargs):
        seen.extend(paths)
        return real(root, paths, **kwargs)

    monkeypatch.setattr(package_module, "read_documents", read_documents)
    return seen


def _cache_files(cache_dir: Path) -> list[Path]:
    return sorted(cache_dir.glob("meta-*.pickle")) if cache_dir.is_dir() else []


def cached_package(tmp_path: Path) -> Path:
    root = write_package(
        tmp_path,
        {
            "guide.md": doc(extra="tags: onboarding", body="See [the FAQ](/faq.md).[^x]\n"),
            "team/handbook.md": doc(title="Team handbook", body="[guide](/guide.md)\n"),
        },
    )
    _age(root)
    return root


def test_cache_second_run_gives_the_same_findings_without_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, reads: list[str]
) -> None:
    root = cached_package(tmp_path)
    code1, first = cli_json(capsys, root, "--agent-ready", "--today", "2026-12-01")
    assert sorted(reads) == ["guide.md", "team/handbook.md"]
    assert len(_cache_files(cache_dir)) == 1
    reads.clear()
    code2, second = cli_json(capsys, root, "--agent-ready", "--today", "2026-12-01")
    assert reads == [], "unchanged documents are served by the cache"
    assert second["findings"] == first["findings"]
    assert {"OKF101", "OKF109", "OKF120"} <= finding_codes(second)
    assert code1 == code2


def test_cache_keeps_a_repeated_frontmatter_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, reads: list[str]
) -> None:
    root = write_package(tmp_path, {"guide.md": doc(extra="type: Policy")})
    _age(root)
    _, first = cli_json(capsys, root)
    assert reads == ["guide.md"]
    for profile in ((), ("--agent-ready",)):
        _, cached = cli_json(capsys, root, *profile)
        assert reads == ["guide.md"], "later runs are served by the cache"
        assert [(f["code"], f["line"]) for f in cached["findings"]] == [("OKF112", 5)]
        assert cached["findings"] == first["findings"]
        assert "lines 2 and 5" in cached["findings"][0]["message"]


def test_cache_sees_a_changed_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, reads: list[str]
) -> None:
    root = cached_package(tmp_path)
    _, first = cli_json(capsys, root)
    assert "OKF004" not in finding_codes(first)
    guide = root / "guide.md"
    st = guide.stat()
    guide.write_text(doc(type=None, extra="tags: onboarding"), encoding="utf-8")
    os.utime(guide, ns=(st.st_atime_ns, st.st_mtime_ns))  # same mtime: only the size changed
    assert guide.stat().st_size != st.st_size
    reads.clear()
    code, second = cli_json(capsys, root)
    assert reads == ["guide.md"], "only the changed document is read again"
    assert "OKF004" in finding_codes(second)
    assert "OKF120" not in finding_codes(second), "the old body's link is gone"
    assert code == 1


def test_cache_serves_files_whose_mtime_changed_but_bytes_did_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, reads: list[str]
) -> None:
    root = cached_package(tmp_path)
    _, first = cli_json(capsys, root, "--agent-ready", "--today", "2026-12-01")
    _age(root, 60)  # what a fresh clone or a branch switch does: same bytes, new mtimes
    guide = root / "guide.md"
    text = guide.read_text(encoding="utf-8")
    guide.write_text(text.replace("onboarding", "onboardinG"), encoding="utf-8")
    past = time.time() - 30
    os.utime(guide, (past, past))  # same size, new bytes, new mtime
    reads.clear()
    _, second = cli_json(capsys, root, "--agent-ready", "--today", "2026-12-01")
    assert reads == ["guide.md"], "only the file whose bytes changed is parsed again"
    assert "'onboardinG'" in json.dumps(second["findings"])  # its new bytes were read
    assert finding_codes(second) == finding_codes(first)
    reads.clear()
    # another --today: the remembered report does not apply, the metadata cache does
    _, third = cli_json(capsys, root, "--agent-ready", "--today", "2026-12-02")
    assert reads == [], "the cache learnt the new mtimes"
    assert third["findings"] == second["findings"]


def test_cache_sees_added_and_removed_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    root = cached_package(tmp_path)
    assert cli_json(capsys, root)[1]["summary"]["documents"] == 2
    (root / "team" / "handbook.md").unlink()
    (root / "new.md").write_text("---\ntitle: No type\n---\n", encoding="utf-8")
    code, data = cli_json(capsys, root)
    assert data["summary"]["documents"] == 2
    assert [f["path"] for f in data["findings"] if f["code"] == "OKF004"] == ["new.md"]
    assert code == 1


def test_cache_with_many_documents_read_in_worker_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    """Enough documents for the parallel reader: the same findings, cached or not."""
    count = loader.PARALLEL_MIN + 20
    files = {
        f"notes/note-{n:03}.md": doc(title=f"Note {n}", body=f"[next](note-{n + 1:03}.md)\n")
        for n in range(count)
    }
    root = write_package(tmp_path, files)
    _age(root)
    _, uncached = cli_json(capsys, root, "--no-cache")
    _, first = cli_json(capsys, root)  # the metadata cache is written in the background
    for memo in cache_dir.glob("report-*.pickle"):
        memo.unlink()  # so the next run reads every document from the metadata cache
    _, second = cli_json(capsys, root)
    assert uncached["summary"]["documents"] == count + 1
    # only the last note links to a note that does not exist
    assert [(f["path"], f["code"]) for f in uncached["findings"]] == [
        (f"notes/note-{count - 1:03}.md", "OKF120")
    ]
    assert first["findings"] == second["findings"] == uncached["findings"]


@pytest.mark.parametrize("kind", ["meta", "report"])
@pytest.mark.parametrize(
    "garbage",
    [b"\x00\xffnot a pickle at all", b"", pickle.dumps({"schema": 3, "entries": "nonsense"})],
    ids=["bytes", "empty", "wrong-shape"],
)
def test_corrupted_cache_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, garbage: bytes, kind: str
) -> None:
    root = cached_package(tmp_path)
    code1, first = cli_json(capsys, root)
    [cache_file] = sorted(cache_dir.glob(f"{kind}-*.pickle"))
    cache_file.write_bytes(garbage)
    if kind == "meta":  # reach the metadata cache: no remembered report in the way
        for memo in cache_dir.glob("report-*.pickle"):
            memo.unlink()
    code2, second = cli_json(capsys, root)
    assert second["findings"] == first["findings"]
    assert code2 == code1
    with open(cache_file, "rb") as handle:  # and it was rewritten whole
        assert isinstance(pickle.load(handle), dict)


def test_no_cache_writes_no_cache_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path
) -> None:
    root = cached_package(tmp_path)
    code, data = cli_json(capsys, root, "--no-cache", "--agent-ready")
    assert data["summary"]["documents"] == 2
    assert not cache_dir.exists() or not any(cache_dir.iterdir())


def test_no_cache_does_not_read_an_existing_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, reads: list[str]
) -> None:
    root = cached_package(tmp_path)
    cli_json(capsys, root)
    before = {p: p.read_bytes() for p in _cache_files(cache_dir)}
    reads.clear()
    cli_json(capsys, root, "--no-cache")
    assert sorted(reads) == ["guide.md", "team/handbook.md"]
    assert {p: p.read_bytes() for p in _cache_files(cache_dir)} == before


# --- the remembered report -----------------------------------------------------------------


@pytest.fixture
def opens(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The package loads a check makes (a remembered report needs none)."""
    seen: list[Path] = []
    real = package_module.Package.open.__func__

    def open_(cls, path, **kwargs):
        seen.append(Path(path))
        return real(cls, path, **kwargs)

    monkeypatch.setattr(package_module.Package, "open", classmethod(open_))
    return seen


def test_an_unchanged_package_reuses_the_last_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, opens: list[Path]
) -> None:
    root = cached_package(tmp_path)
    argv = (root, "--agent-ready", "--today", "2026-12-01")
    code1, first = cli_json(capsys, *argv)
    assert len(opens) == 1 and len(list(cache_dir.glob("report-*.pickle"))) == 1
    code2, second = cli_json(capsys, *argv)
    assert len(opens) == 1, "nothing changed: no file is opened"
    assert second["findings"] == first["findings"] and code2 == code1
    assert second["summary"] | {"seconds": 0} == first["summary"] | {"seconds": 0}
    _, text = cli(capsys, *argv)[:2]
    assert "OKF120" in text and len(opens) == 1


@pytest.mark.parametrize(
    "options",
    [("--today", "2030-01-01"), ("--agent-ready",), ("--select", "OKF1"), ("--ignore", "OKF120")],
)
def test_other_options_check_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opens: list[Path], options: tuple
) -> None:
    root = cached_package(tmp_path)
    cli_json(capsys, root, "--today", "2026-12-01")
    cli_json(capsys, root, "--today", "2026-12-01", *options)
    assert len(opens) == 2


@pytest.mark.parametrize(
    "change",
    ["edit-same-size", "link-target-appears", "new-asset", "new-folder", "index", "delete"],
)
def test_any_change_on_disk_checks_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opens: list[Path], change: str
) -> None:
    root = cached_package(tmp_path)
    _, first = cli_json(capsys, root, "--agent-ready")
    if change == "edit-same-size":  # same size, later mtime
        guide = root / "guide.md"
        guide.write_text(guide.read_text().replace("onboarding", "oNBOARDING"))
        _age(root, 1800)
    elif change == "link-target-appears":  # the broken link to /faq.md now resolves
        (root / "faq.md").write_text(doc(title="FAQ"))
        _age(root, 1800)
    elif change == "new-asset":  # a link may name it: only its existence matters
        (root / "team" / "diagram.png").write_bytes(b"\x89PNG")
    elif change == "new-folder":
        (root / "team" / "sub").mkdir()
    elif change == "index":
        (root / "index.md").write_text("# Index\n\n- [Guide](guide.md): The guide.\n")
        _age(root, 1800)
    else:
        (root / "team" / "handbook.md").unlink()
    _, second = cli_json(capsys, root, "--agent-ready")
    assert len(opens) == 2
    if change == "link-target-appears":
        assert "OKF120" in finding_codes(first) and "OKF120" not in finding_codes(second)
    if change == "delete":
        assert second["summary"]["documents"] == 1


def test_a_file_changed_within_two_seconds_is_not_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opens: list[Path]
) -> None:
    root = cached_package(tmp_path)
    (root / "guide.md").touch()  # modified now: a second edit could keep this mtime
    cli_json(capsys, root)
    cli_json(capsys, root)
    assert len(opens) == 2


def test_fix_and_no_cache_never_use_the_remembered_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache_dir: Path, opens: list[Path]
) -> None:
    root = cached_package(tmp_path)
    cli_json(capsys, root, "--agent-ready")
    cli_json(capsys, root, "--agent-ready", "--no-cache")
    cli_json(capsys, root, "--agent-ready", "--fix")
    assert len(opens) == 3
    code, data = cli_json(capsys, root, "--agent-ready")
    assert len(opens) == 4, "the fix changed files: checked again"
    assert not {"KAS030", "KAS035"} & finding_codes(data)


# --- the rule reference -----------------------------------------------------------------------------


def test_docs_rules_md_is_generated_from_the_catalog() -> None:
    on_disk = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert on_disk == rules_markdown(), (
        "docs/rules.md is out of date with kas_tui/features/check/rule_catalog.py; "
        "run `kas-tui rules > docs/rules.md`"
    )


def test_rules_command_prints_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert out == rules_markdown()
    for rule in RULES:
        assert f"### {rule.code}" in out
