"""Index size rules of ``check --agent-ready``: the token budget (KAS046), too many entries
(KAS047) and a bundle of one (KAS048); ``--index-budget`` and the remembered report.

Every CLI test runs with ``KAS_TUI_CACHE_DIR`` in its own ``tmp_path`` (conftest).
"""

# ruff: noqa: E501  (index entries are one long line each)

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.features.check import check, engine
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET, MAX_BUNDLE_ENTRIES, estimate_tokens
from tests.helpers.check import INDEX, describe, doc, run, with_code, write_package

ROOT = Path(__file__).resolve().parents[3]
DEMO = ROOT / "demo_kb" / "orbit-handbook"
SIZE_CODES = ("KAS046", "KAS047", "KAS048")

#: Ten descriptions no two of which read alike (KAS041); later notes repeat a pattern.
_DESCRIPTIONS = (
    "Which expenses the team reimburses and how to file a claim before month end.",
    "How production database backups are taken, tested and restored after an incident.",
    "Who may approve a hotfix deploy outside the weekly release window.",
    "Laptop models we buy, how to order one and how long delivery takes.",
    "Steps for rotating the payment provider's API keys without downtime.",
    "Parking spaces at the Berlin office and how visitors get a permit.",
    "What the quarterly security audit checks and which evidence it asks for.",
    "The interview loop for engineers, its panel members and the scoring sheet.",
    "Which vendor contracts renew automatically and who must be told first.",
    "How on-call pages are routed at night and when to wake a second person.",
)


def _note(n: int) -> tuple[str, str, str]:
    """(file name, title, description) of the ``n``-th extra document."""
    description = _DESCRIPTIONS[n] if n < len(_DESCRIPTIONS) else f"Notes of team meeting {n}."
    return f"note-{n:03}.md", f"Note {n}", description


def root_entries(extra: int) -> dict[str, str]:
    """The base package with ``extra`` more documents, every one listed in the root index."""
    files: dict[str, str] = {}
    lines = [INDEX.rstrip("\n")]
    for n in range(extra):
        name, title, description = _note(n)
        files[name] = doc(title=title, description=description)
        lines.append(f"* [{title}]({name}) - {description}")
    files["index.md"] = "\n".join(lines) + "\n"
    return files


def team_bundle(count: int) -> dict[str, str]:
    """A sub-folder ``team/`` holding ``count`` documents, listed in the root index."""
    files = {
        "index.md": INDEX
        + "* [Team](team/) - Who is on the team, how to reach them and what each person owns.\n"
    }
    lines = ["# Team", ""]
    for n in range(count):
        name, title, description = _note(n)
        files[f"team/{name}"] = doc(title=title, description=description)
        lines.append(f"* [{title}]({name}) - {description}")
    files["team/index.md"] = "\n".join(lines) + "\n"
    return files


def sizes(report) -> list:
    return [f for f in report.findings if f.code in SIZE_CODES]


# --- KAS046: the token budget -------------------------------------------------------------------


def test_index_over_the_budget_is_warned_with_its_estimate(tmp_path: Path) -> None:
    root = write_package(tmp_path, root_entries(9))
    tokens = estimate_tokens((root / "index.md").read_text(encoding="utf-8"))
    assert tokens > 100
    report = run(root, agent_ready=True, index_budget=100)
    [found] = with_code(report, "KAS046")
    assert (found.path, found.line, found.severity) == ("index.md", None, "warning")
    assert found.message == f"index.md is about {tokens:,} tokens; the budget is 100"
    # the hint names sub-bundles small enough to fit: entries of about 25 tokens, 4 of them
    assert "topical sub-bundles of at most about 4 entries each" in found.hint
    assert "one sentence" in found.hint and "raw tables" in found.hint
    # 8 entries would fit 200 tokens, but a split of 10 entries in two is 5 each
    [found] = with_code(run(root, agent_ready=True, index_budget=200), "KAS046")
    assert "at most about 5 entries each" in found.hint


def test_the_same_index_within_a_larger_budget_is_not_warned(tmp_path: Path) -> None:
    root = write_package(tmp_path, root_entries(9))
    tokens = estimate_tokens((root / "index.md").read_text(encoding="utf-8"))
    assert not with_code(run(root, agent_ready=True, index_budget=tokens), "KAS046")
    assert with_code(run(root, agent_ready=True, index_budget=tokens - 1), "KAS046")
    report = run(root, agent_ready=True)  # the default budget
    assert not sizes(report), describe(report)


def test_default_budget_counts_a_raw_table_in_the_index(tmp_path: Path) -> None:
    """Not only entries: an index is read whole, tables and prose included."""
    table = "| plan | seats | price |\n|---|---|---|\n" + "".join(
        f"| plan {n} | {n * 5} seats | {n * 12} EUR a month |\n" for n in range(600)
    )
    root = write_package(tmp_path, {"index.md": INDEX + "\n" + table})
    tokens = estimate_tokens((root / "index.md").read_text(encoding="utf-8"))
    assert tokens > INDEX_TOKEN_BUDGET
    [found] = with_code(run(root, agent_ready=True), "KAS046")
    assert found.message == f"index.md is about {tokens:,} tokens; the budget is 4,000"
    assert not with_code(run(root, agent_ready=True, index_budget=tokens), "KAS046")


@pytest.mark.parametrize("budget", [0, -1, 2.5, "4000", True])
def test_check_refuses_a_budget_that_is_not_a_positive_whole_number(
    tmp_path: Path, budget: object
) -> None:
    pkg = Package.open(write_package(tmp_path))
    with pytest.raises(ValueError, match="index_budget"):
        check(pkg, agent_ready=True, index_budget=budget)  # type: ignore[arg-type]


# --- KAS047: too many entries -------------------------------------------------------------------


def test_bundle_with_61_entries_is_kas047(tmp_path: Path) -> None:
    root = write_package(tmp_path, root_entries(MAX_BUNDLE_ENTRIES))  # and the guide: 61
    report = run(root, agent_ready=True)
    [found] = with_code(report, "KAS047")
    assert (found.path, found.line, found.severity) == ("index.md", None, "warning")
    assert "61 entries" in found.message and "60" in found.message
    assert "sub-bundles" in found.hint
    # short entries: many, but within the token budget
    assert not with_code(report, "KAS046"), describe(report)


def test_bundle_with_60_entries_is_not_kas047(tmp_path: Path) -> None:
    report = run(write_package(tmp_path, root_entries(MAX_BUNDLE_ENTRIES - 1)), agent_ready=True)
    assert not sizes(report), describe(report)


# --- KAS048: a bundle of one --------------------------------------------------------------------


def test_sub_bundle_with_one_entry_is_kas048_info(tmp_path: Path) -> None:
    report = run(write_package(tmp_path, team_bundle(1)), agent_ready=True)
    [found] = sizes(report)
    assert (found.code, found.severity) == ("KAS048", "info")
    assert (found.path, found.line) == ("team/index.md", 3)
    assert found.message == "team/ lists a single entry, 'Note 0'"
    assert "parent bundle" in found.hint


def test_root_with_one_entry_and_sub_bundle_with_two_are_not_kas048(tmp_path: Path) -> None:
    base = run(write_package(tmp_path / "base"), agent_ready=True)  # the root lists one entry
    assert base.findings == [], describe(base)
    report = run(write_package(tmp_path / "two", team_bundle(2)), agent_ready=True)
    assert not sizes(report), describe(report)


def test_size_rules_run_only_with_agent_ready_and_obey_select(tmp_path: Path) -> None:
    root = write_package(tmp_path, team_bundle(1))
    assert not sizes(run(root, index_budget=10))
    report = run(root, agent_ready=True, index_budget=10, ignore=["KAS046"])
    assert [f.code for f in sizes(report)] == ["KAS048"]
    report = run(root, agent_ready=True, index_budget=10, select=["KAS046"])
    assert {f.code for f in report.findings} == {"KAS046"}


def test_demo_package_is_within_every_size_rule() -> None:
    report = run(DEMO, agent_ready=True)
    assert not sizes(report), describe(report)


# --- the command line ---------------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main(["check", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> dict:
    code, out, err = cli(capsys, *argv, "--agent-ready", "--format", "json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("0", "'0' must be at least 1 token"),
        ("-5", "'-5' must be at least 1 token"),
        ("abc", "'abc' is not a whole number of tokens"),
        ("2.5", "'2.5' is not a whole number of tokens"),
    ],
)
def test_cli_refuses_a_bad_index_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, says: str
) -> None:
    root = write_package(tmp_path)
    code, out, err = cli(capsys, root, "--agent-ready", "--index-budget", value)
    assert code == 2
    assert out == ""
    assert f"kas-tui check: argument --index-budget: {says}" in err


def test_cli_index_budget_reaches_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_package(tmp_path, root_entries(9))
    tokens = estimate_tokens((root / "index.md").read_text(encoding="utf-8"))
    data = cli_json(capsys, root, "--no-cache", "--index-budget", "100")
    assert [(f["code"], f["message"]) for f in data["findings"]] == [
        ("KAS046", f"index.md is about {tokens:,} tokens; the budget is 100")
    ]
    assert cli_json(capsys, root, "--no-cache")["findings"] == []
    code, out, _ = cli(
        capsys, root, "--agent-ready", "--no-cache", "--index-budget", "100", "--strict"
    )
    assert code == 1 and "KAS046 warning" in out


def test_cache_answers_only_the_same_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_package(tmp_path, root_entries(9))
    old = time.time() - 3600  # files changed in the last two seconds are never trusted
    for path in root.rglob("*"):
        os.utime(path, (old, old))
    checks: list[int] = []
    real = engine.check

    def counted(pkg, **options):
        checks.append(options["index_budget"])
        return real(pkg, **options)

    monkeypatch.setattr(engine, "check", counted)
    large = cli_json(capsys, root, "--index-budget", "100000")
    again = cli_json(capsys, root, "--index-budget", "100000")
    assert checks == [100000], "the same budget: the remembered report"
    assert again["findings"] == large["findings"] == []
    small = cli_json(capsys, root, "--index-budget", "100")
    assert checks == [100000, 100], "another budget is checked, not recalled"
    assert [f["code"] for f in small["findings"]] == ["KAS046"]
    assert cli_json(capsys, root, "--index-budget", "100000")["findings"] == []
    assert checks == [100000, 100, 100000]


def test_an_index_counts_its_own_entries_once_not_once_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bundle's description room is measured by its index's own entries; asked per
    entry, a one-folder package of 20,000 documents took 58 s to check instead of 3."""
    from kas_tui.core import records

    (tmp_path / "SKILL.md").write_text(
        "---\nname: kb\ndescription: Widgets, what they are and how to use them.\n---\n\nBody.\n"
    )
    (tmp_path / "log.md").write_text("# Update log\n\n## 2026-11-30\n* **Creation**: x.\n")
    lines = ["# KB\n"]
    for n in range(40):
        (tmp_path / f"d{n}.md").write_text(
            f"---\ntype: Guide\ntitle: Page {n}\ndescription: What page {n} covers here.\n---\n"
        )
        lines.append(f"* [Page {n}](d{n}.md) - What page {n} covers here.")
    (tmp_path / "index.md").write_text("\n".join(lines) + "\n")
    calls = []
    real = records.IndexFile.own_listings
    monkeypatch.setattr(
        records.IndexFile, "own_listings", lambda self, *a: calls.append(1) or real(self, *a)
    )
    pkg = Package(tmp_path)
    pkg.load()
    check(pkg, agent_ready=True)
    assert 0 < len(calls) <= len(pkg.indexes)


def test_a_bundles_room_is_measured_by_the_bundles_beside_it_not_the_pages(
    tmp_path: Path,
) -> None:
    """Two bundles beside forty pages: each bundle's sentence may take the room of an
    index listing two bundles (the pages' entries have their own), so a 400-character
    sentence naming what a bundle of hundreds of pages covers is not "long" (KAS045)."""
    (tmp_path / "SKILL.md").write_text(
        "---\nname: kb\ndescription: Widgets, what they are and how to use them.\n---\n\nBody.\n"
    )
    (tmp_path / "log.md").write_text("# Update log\n\n## 2026-11-30\n* **Creation**: x.\n")
    sentence = "Orders and invoices: " + ", ".join(f"topic {n}" for n in range(40)) + "."
    assert 380 < len(sentence) < 600
    lines = ["# KB\n"]
    for name in ("sales", "stock"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.md").write_text(
            "---\ntype: Guide\ntitle: A\ndescription: What page a covers here.\n---\n"
        )
        (tmp_path / name / "index.md").write_text(
            f"# {name}\n\n* [A](a.md) - What page a covers here.\n"
        )
        lines.append(f"* [{name.title()}]({name}/) - {sentence}")
    for n in range(40):
        (tmp_path / f"d{n}.md").write_text(
            f"---\ntype: Guide\ntitle: Page {n}\ndescription: What page {n} covers here.\n---\n"
        )
        lines.append(f"* [Page {n}](d{n}.md) - What page {n} covers here.")
    (tmp_path / "index.md").write_text("\n".join(lines) + "\n")
    pkg = Package(tmp_path)
    pkg.load()
    long = [f for f in check(pkg, agent_ready=True).findings if f.code == "KAS045"]
    assert not long, [f.message for f in long]
    (tmp_path / "index.md").write_text("\n".join(lines).replace(sentence, sentence * 2) + "\n")
    pkg = Package(tmp_path)
    pkg.load()
    long = [f for f in check(pkg, agent_ready=True).findings if f.code == "KAS045"]
    assert len(long) == 2  # past the room of two bundles: long
