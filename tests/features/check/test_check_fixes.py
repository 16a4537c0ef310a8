"""``kas-tui check --agent-ready --fix``: safe fixes only add, never delete or reword.

The package is a git repository, so ``git diff`` shows exactly what a fix changed in the
files a curator committed. Tests that need git are skipped without it.
"""

# ruff: noqa: E501  (index entries and descriptions are one long line each)

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.log import parse_log
from kas_tui.features.check.fixes import FIXABLE
from tests.helpers.acme import snapshot
from tests.helpers.check import doc, run, snapshot_bytes, with_code, write_package

TODAY = "2026-12-01"

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("KAS_TUI_CACHE_DIR", str(folder))
    return folder


def git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.org",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.org",
    }
    result = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout


def commit_all(root: Path) -> None:
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "curator's version")


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    try:
        code = main(["check", *map(str, argv)])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


# --- the package -------------------------------------------------------------------------------

POLICY_DESCRIPTION = "How many days of leave each team member gets and who approves a request."

ROOT_INDEX = """\
# Example handbook

Curator's note: start with the guide. Ask in #team-help when something is missing.

## Guides

* [Getting started](guide.md) - How a new team member sets up access and finds the runbooks on day one.

## Policies

* [Leave policy](policy.md)

<!-- keep entries one line each -->
"""

TEAM_INDEX = """\
# Team

* [Team handbook](handbook.md) - Who is on the team, how to reach them and what each person owns.
"""

FILES: dict[str, str | None] = {
    "log.md": None,  # no log: KAS035
    "index.md": ROOT_INDEX,
    # listed with an empty description: KAS033
    "policy.md": doc(type="Policy", title="Leave policy", description=POLICY_DESCRIPTION),
    # not listed: KAS031
    "tools.md": doc(
        title="Tools",
        description="Which laptops, editors and VPN clients the team uses and how to get them.",
    ),
    # a bundle with its index, not listed by the root: KAS032
    "team/index.md": TEAM_INDEX,
    "team/handbook.md": doc(
        type="Reference",
        title="Team handbook",
        description="Who is on the team, how to reach them and what each person owns.",
    ),
    # a bundle of two types and no index.md: KAS030 (and KAS032 in the root)
    "ops/restart-api.md": doc(
        type="Runbook",
        title="Restart the API",
        description="Steps to restart the public API without dropping in-flight requests.",
    ),
    "ops/rotate-keys.md": doc(
        type="Runbook",
        title="Rotate keys",
        description="Steps to rotate the signing keys of the API and revoke the old ones.",
    ),
    "ops/escalation.md": doc(
        type="Policy",
        title="Escalation",
        description="When an on-call engineer must page the incident commander and the CTO.",
    ),
}


def fix_package(tmp_path: Path) -> Path:
    root = write_package(tmp_path, FILES)
    commit_all(root)
    return root


def findings_json(capsys: pytest.CaptureFixture[str], root: Path, *extra: str) -> tuple[int, dict]:
    code, out, _ = cli(capsys, root, "--agent-ready", "--today", TODAY, "--format", "json", *extra)
    return code, json.loads(out)


def diff_lines(root: Path, rel: str) -> tuple[list[str], list[str]]:
    """Lines removed and added in ``rel`` since the commit (``git diff -U0``)."""
    removed, added = [], []
    for line in git(root, "diff", "-U0", "--", rel).splitlines():
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("-"):
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
    return removed, added


# --- tests -------------------------------------------------------------------------------------


@needs_git
def test_package_has_every_fixable_problem(tmp_path: Path, capsys) -> None:
    root = fix_package(tmp_path)
    code, data = findings_json(capsys, root)
    found = {(f["code"], f["path"], f["message"]) for f in data["findings"] if f["code"] in FIXABLE}
    assert found == {
        ("KAS030", "ops/index.md", "ops/ holds documents but no index.md"),
        ("KAS031", "index.md", "tools.md is not listed"),
        ("KAS032", "index.md", "team/ is not listed"),
        ("KAS032", "index.md", "ops/ is not listed"),
        ("KAS033", "index.md", "entry 'Leave policy' has no description"),
        ("KAS035", "log.md", "the package has no root log.md"),
    }
    assert code == 1


@needs_git
def test_fix_makes_the_package_agent_ready_by_adding_only(tmp_path: Path, capsys) -> None:
    root = fix_package(tmp_path)
    _, before = findings_json(capsys, root)
    fixable_before = sum(f["code"] in FIXABLE for f in before["findings"])

    code, data = findings_json(capsys, root, "--fix")
    assert data["summary"]["errors"] == 0, data["findings"]
    assert data["summary"]["fixed"] == fixable_before
    assert code == 0

    # a fresh check agrees
    code, after = findings_json(capsys, root)
    assert after["summary"]["errors"] == 0, after["findings"]
    assert code == 0

    # tracked files: only index.md changed, and only by additions plus the filled entry
    numstat = [line.split("\t") for line in git(root, "diff", "--numstat").splitlines()]
    assert [path for _, _, path in numstat] == ["index.md"]
    removed, added = diff_lines(root, "index.md")
    assert removed == ["* [Leave policy](policy.md)"]
    assert f"* [Leave policy](policy.md) - {POLICY_DESCRIPTION}" in added
    # the filled entry, tools.md, and team/ and ops/ in a new "## Bundles" section, at
    # the level of the file's other sections
    assert [line for line in added if line.startswith("* ")] == [
        line for line in added if line not in ("", "## Bundles")
    ]
    assert "## Bundles" in added
    assert len([line for line in added if line.startswith("* ")]) == 4

    # new files: ops/index.md and log.md, nothing else
    untracked = git(root, "ls-files", "--others", "--exclude-standard").split()
    assert sorted(untracked) == ["log.md", "ops/index.md"]


@needs_git
def test_fix_keeps_curator_prose_and_other_entries_byte_identical(tmp_path: Path, capsys) -> None:
    root = fix_package(tmp_path)
    original = (root / "index.md").read_bytes().decode().splitlines(keepends=True)
    cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    fixed = (root / "index.md").read_bytes().decode().splitlines(keepends=True)
    filled = f"* [Leave policy](policy.md) - {POLICY_DESCRIPTION}\n"
    new_entries = [line for line in fixed if line.startswith(("* [Tools]", "* [Team]", "* [Ops]"))]
    assert len(new_entries) == 3
    assert filled in fixed and "* [Leave policy](policy.md)\n" not in fixed
    # every original line is still there, in order, byte for byte (bar the filled entry)
    matcher = difflib.SequenceMatcher(a=original, b=fixed, autojunk=False)
    kept_lines = sum(size for _, _, size in matcher.get_matching_blocks())
    assert kept_lines == len(original) - 1
    assert git(root, "diff", "--name-only") == "index.md\n", "no other tracked file changed"
    # the new entries follow the file's style and sections
    index = parse_index((root / "index.md").read_text(encoding="utf-8"))
    by_target = {e.target: e for e in index.entries}
    assert by_target["tools.md"].section == "Guides", "a Guide goes with the other guides"
    assert (
        by_target["tools.md"].description
        == "Which laptops, editors and VPN clients the team uses and how to get them."
    )
    assert by_target["team/"].description and by_target["ops/"].description
    assert all(e.bullet == "*" and e.sep == " - " for e in index.entries)


def test_fix_puts_an_entry_under_the_section_named_after_its_type(tmp_path: Path, capsys) -> None:
    index = (
        "# Example handbook\n\n## Guides\n\n"
        "* [Getting started](guide.md) - How a new team member sets up access and finds the runbooks on day one.\n"
        "* [Style](style.md) - How we write and format every page of this handbook.\n\n"
        "## Runbooks\n\n"  # nothing listed yet: the Runbook goes here all the same
    )
    files = {
        "index.md": index,
        "style.md": doc(
            title="Style", description="How we write and format every page of this handbook."
        ),
        "restart.md": doc(
            type="Runbook",
            title="Restart the API",
            description="Steps to restart the public API without dropping requests.",
        ),
    }
    root = write_package(tmp_path, files)
    cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    entries = parse_index((root / "index.md").read_text(encoding="utf-8")).entries
    assert {e.target: e.section for e in entries}["restart.md"] == "Runbooks"


@needs_git
def test_new_index_groups_documents_by_type(tmp_path: Path, capsys) -> None:
    root = fix_package(tmp_path)
    cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    index = parse_index((root / "ops" / "index.md").read_text(encoding="utf-8"))
    assert index.frontmatter is None
    sections: dict[str | None, list[str]] = {}
    for entry in index.entries:
        sections.setdefault(entry.section, []).append(entry.target)
    assert sections == {
        "Runbooks": ["restart-api.md", "rotate-keys.md"],
        "Policies": ["escalation.md"],
    }
    descriptions = {e.target: e.description for e in index.entries}
    assert (
        descriptions["escalation.md"]
        == "When an on-call engineer must page the incident commander and the CTO."
    )


@needs_git
def test_new_log_has_one_entry_for_the_run(tmp_path: Path, capsys) -> None:
    root = fix_package(tmp_path)
    cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    log = parse_log((root / "log.md").read_text(encoding="utf-8"))
    assert log.problems == []
    assert [(g.date, len(g.bullets)) for g in log.groups] == [(TODAY, 1)]
    bullet = log.groups[0].bullets[0]
    assert bullet.kind == "Update"
    assert "kas-tui check --fix" in bullet.text


@needs_git
def test_second_fix_run_changes_nothing(tmp_path: Path, capsys) -> None:
    root = fix_package(tmp_path)
    cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    before = snapshot(root)
    code, out, _ = cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    assert snapshot(root) == before, "nothing to fix: nothing written, no log entry"
    assert code == 0
    assert "applied" not in out
    # not even on another day
    code, out, _ = cli(capsys, root, "--agent-ready", "--fix", "--today", "2026-12-02")
    assert snapshot(root) == before


@needs_git
def test_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path, capsys) -> None:
    root = fix_package(tmp_path)
    before = snapshot(root)
    code, out, err = cli(capsys, root, "--agent-ready", "--fix", "--dry-run", "--today", TODAY)
    assert snapshot(root) == before, "a dry run writes nothing"
    assert code == 1, "the findings are still there"
    assert "--- a/index.md\n+++ b/index.md\n" in out
    assert "--- /dev/null\n+++ b/ops/index.md\n" in out
    assert "--- /dev/null\n+++ b/log.md\n" in out
    assert f"+* [Leave policy](policy.md) - {POLICY_DESCRIPTION}\n" in out
    assert "-* [Leave policy](policy.md)\n" in out
    assert "nothing was written" in err
    assert git(root, "status", "--porcelain") == ""


@needs_git
def test_dry_run_diff_is_what_fix_writes(tmp_path: Path, capsys) -> None:
    dry = fix_package(tmp_path / "dry")
    real = fix_package(tmp_path / "real")
    _, diff, _ = cli(capsys, dry, "--agent-ready", "--fix", "--dry-run", "--today", TODAY)
    (tmp_path / "fix.diff").write_text(diff, encoding="utf-8")
    git(dry, "apply", str(tmp_path / "fix.diff"))
    cli(capsys, real, "--agent-ready", "--fix", "--today", TODAY)
    files = {k: v for k, v in snapshot_bytes(dry).items() if not k.startswith(".git/")}
    assert files == {k: v for k, v in snapshot_bytes(real).items() if not k.startswith(".git/")}


@needs_git
def test_fill_description_changes_only_that_entry_line(tmp_path: Path, capsys) -> None:
    root = write_package(
        tmp_path,
        {
            "index.md": "# Example handbook\n\nRead the guide first.\n\n* [Getting started](guide.md)\n\nMore soon.\n",
        },
    )
    commit_all(root)
    code, out, _ = cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    assert code == 0
    assert "1 fix applied" in out
    removed, added = diff_lines(root, "index.md")
    assert removed == ["* [Getting started](guide.md)"]
    assert added == [
        "* [Getting started](guide.md) - How a new team member sets up access and finds the runbooks on day one."
    ]
    # the existing log gets one added bullet under today's date, and loses nothing
    removed, added = diff_lines(root, "log.md")
    assert removed == []
    log = parse_log((root / "log.md").read_text(encoding="utf-8"))
    assert [(g.date, len(g.bullets)) for g in log.groups] == [(TODAY, 1), ("2026-11-02", 1)]
    assert "filled 1 empty entry description" in log.groups[0].bullets[0].text


@needs_git
def test_listing_only_adds_lines(tmp_path: Path, capsys) -> None:
    root = write_package(
        tmp_path,
        {
            "tools.md": doc(
                title="Tools",
                description="Which laptops, editors and VPN clients the team uses and how to get them.",
            ),
            "team/handbook.md": doc(
                title="Team handbook",
                description="Who is on the team, how to reach them and what each person owns.",
            ),
        },
    )
    commit_all(root)
    code, _, _ = cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    assert code == 0
    for line in git(root, "diff", "--numstat").splitlines():
        added, deleted, path = line.split("\t")
        assert deleted == "0", f"{path}: a fix deleted {deleted} line(s)"
        assert int(added) > 0
    assert sorted(git(root, "ls-files", "--others", "--exclude-standard").split()) == [
        "team/index.md"
    ]


def test_nothing_fixable_writes_nothing(tmp_path: Path, capsys) -> None:
    """An entry for a bundle with no description cannot be filled: no edit, no log entry."""
    root = write_package(
        tmp_path,
        {
            "team/handbook.md": doc(
                title="Team handbook",
                description="Who is on the team, how to reach them and what each person owns.",
            ),
            "team/index.md": "# Team\n\n* [Team handbook](handbook.md) - Who is on the team, how to reach them and what each person owns.\n",
            "index.md": "# Example handbook\n\n* [Getting started](guide.md) - How a new team member sets up access and finds the runbooks on day one.\n* [Team](team/)\n",
        },
    )
    before = snapshot(root)
    code, out, _ = cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY, "--format", "json")
    data = json.loads(out)
    assert snapshot(root) == before
    # KAS048 (team/ is a bundle of one) has no fix either
    assert [f["code"] for f in data["findings"]] == ["KAS033", "KAS048"]
    assert data["summary"]["fixed"] == 0
    assert code == 1


def test_fixed_count_is_what_was_fixed(tmp_path: Path, capsys) -> None:
    root = write_package(
        tmp_path,
        {
            "team/handbook.md": doc(
                title="Team handbook",
                description="Who is on the team, how to reach them and what each person owns.",
            ),
            "team/index.md": "# Team\n\n* [Team handbook](handbook.md) - Who is on the team, how to reach them and what each person owns.\n",
            "index.md": "# Example handbook\n\n* [Getting started](guide.md)\n* [Team](team/)\n",
        },
    )
    code, out, _ = cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY, "--format", "json")
    data = json.loads(out)
    # the bundle entry remains, and team/ is still a bundle of one (KAS048, no fix)
    assert [f["code"] for f in data["findings"]] == ["KAS033", "KAS048"]
    assert data["summary"]["fixed"] == 1


def test_fix_creates_a_missing_log(tmp_path: Path, capsys) -> None:
    root = write_package(tmp_path, {"log.md": None})
    code, out, _ = cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    assert code == 0
    log = parse_log((root / "log.md").read_text(encoding="utf-8"))
    assert [(g.date, len(g.bullets)) for g in log.groups] == [(TODAY, 1)]
    assert "created this log" in log.groups[0].bullets[0].text
    assert not with_code(run(root, agent_ready=True), "KAS035")


def test_fix_without_agent_ready_changes_nothing(tmp_path: Path, capsys) -> None:
    """The fixable rules are agent-ready rules: the OKF profile finds nothing to fix."""
    root = write_package(tmp_path, {"log.md": None, "tools.md": doc(title="Tools")})
    before = snapshot(root)
    code, _, _ = cli(capsys, root, "--fix", "--today", TODAY)
    assert code == 0
    assert snapshot(root) == before


def test_dry_run_leaves_the_loaded_model_as_the_disk_says(tmp_path: Path) -> None:
    import datetime as dt

    from kas_tui.core.package import Package
    from kas_tui.features.check import check
    from kas_tui.features.check.fixes import apply_fixes

    root = fix_package(tmp_path)
    pkg = Package.open(root, scan=True)
    today = dt.date.fromisoformat(TODAY)
    before = check(pkg, agent_ready=True, today=today).findings
    outcome = apply_fixes(pkg, check(pkg, agent_ready=True, today=today), today=today, dry_run=True)
    assert outcome.diff and outcome.fixed
    assert not pkg.store.dry_run and not pkg.store.undo_stack
    assert check(pkg, agent_ready=True, today=today).findings == before


def test_the_summary_counts_fixes_in_english() -> None:
    """'202 fixes applied', never '202 fixs applied'."""
    import datetime as dt

    from kas_tui.features.check.findings import Report
    from kas_tui.features.check.report import summary

    report = Report("/kb", "okf", dt.date(2026, 12, 1), 3)
    assert ", 1 fix applied in" in summary(report, fixed=1)
    assert ", 202 fixes applied in" in summary(report, fixed=202)
    assert "applied" not in summary(report, fixed=0)


def test_fix_refuses_a_read_only_index_in_one_line(tmp_path: Path, capsys) -> None:
    """A read-only index.md is never replaced by a fix (the folder's rename would)."""
    root = fix_package(tmp_path)
    (root / "index.md").chmod(0o444)
    before = (root / "index.md").read_bytes()
    code, out, err = cli(capsys, root, "--agent-ready", "--fix", "--today", TODAY)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "index.md: is read-only" in lines[0], err
    assert "Traceback" not in err
    assert (root / "index.md").read_bytes() == before
