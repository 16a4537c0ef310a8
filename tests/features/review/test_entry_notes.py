"""The index entries a lifecycle edit leaves saying the wrong thing (issue 32, item 12):
kas_tui.features.review.entry_notes, by the rule check --agent-ready reports (KAS044).

Each test writes a small package, asks what ``D`` or ``S`` would offer to fix, applies it
as the TUI does (kas_tui.core.editing) and checks the package agrees with itself after.
"""

# ruff: noqa: E501  (index entries are one long line each, as in real packages)

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.core.editing import set_entry, set_field
from kas_tui.core.okf.lifecycle import extend_stale_after
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.review.entry_notes import note_fixes
from tests.helpers.check import GUIDE_DESCRIPTION, INDEX, doc, write_package

TODAY = dt.date(2026, 12, 1)
STALE = "stale_after: 2026-10-01T00:00:00Z"
ENTRY = f"* [Getting started](guide.md) - {GUIDE_DESCRIPTION}"


def _package(tmp_path: Path, description: str, extra: str) -> Path:
    entry = ENTRY.replace(GUIDE_DESCRIPTION, description)
    return write_package(
        tmp_path, {"guide.md": doc(extra=extra), "index.md": INDEX.replace(ENTRY, entry)}
    )


def _kas044(root: Path) -> list[str]:
    report = check(Package.open(root), agent_ready=True, today=TODAY)
    return [f.message for f in report.findings if f.code == "KAS044"]


def _apply(root: Path, field: str, value: str) -> None:
    """What the TUI's key writes when the curator says yes: the field and every fix."""
    pkg = Package.open(root)
    fixes = note_fixes(pkg, "guide.md", {**pkg.documents["guide.md"].meta, field: value}, TODAY)
    set_field(pkg, "guide.md", field, value)
    for fix in fixes:
        set_entry(pkg, fix.index, fix.line, description=fix.description)


def _entry(root: Path) -> str:
    return next(
        line for line in (root / "index.md").read_text().splitlines() if "(guide.md)" in line
    )


def _fresh(root: Path) -> str:
    meta = Package.open(root).documents["guide.md"].meta
    return str(extend_stale_after(meta.get("stale_after"), 90, TODAY))


def test_check_flags_a_stale_note_the_document_no_longer_deserves(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        f"(Stale: quarterly review overdue.) {GUIDE_DESCRIPTION}",
        "stale_after: 2027-06-01",
    )
    assert _kas044(root) == ["the entry says guide.md is stale, but it is not: drop the note"]


def test_check_flags_a_deprecated_note_on_a_current_document(tmp_path: Path) -> None:
    root = _package(tmp_path, f"Deprecated: {GUIDE_DESCRIPTION}", "")
    assert _kas044(root) == ["the entry says guide.md is deprecated, but it is not: drop the note"]


def test_s_on_a_stale_page_drops_the_false_note_and_check_agrees(tmp_path: Path) -> None:
    root = _package(tmp_path, f"(Stale: quarterly review overdue.) {GUIDE_DESCRIPTION}", STALE)
    assert _kas044(root) == []  # stale and saying so
    pkg = Package.open(root)
    until = _fresh(root)
    [fix] = note_fixes(
        pkg, "guide.md", {**pkg.documents["guide.md"].meta, "stale_after": until}, TODAY
    )
    assert (fix.index, fix.line, fix.problem, fix.said) == ("index.md", 3, "false", "stale")
    assert fix.description == GUIDE_DESCRIPTION
    _apply(root, "stale_after", until)
    assert _entry(root) == ENTRY
    assert _kas044(root) == []


@pytest.mark.parametrize(
    "note", ["(Stale: price review overdue.) ", "(stale, under review) ", "Stale - "]
)
def test_every_form_of_a_stale_note_is_dropped(tmp_path: Path, note: str) -> None:
    root = _package(tmp_path, note + GUIDE_DESCRIPTION, STALE)
    _apply(root, "stale_after", _fresh(root))
    assert _entry(root) == ENTRY and _kas044(root) == []


def test_s_on_a_deprecated_page_keeps_its_note(tmp_path: Path) -> None:
    """The note still tells the truth (the page is deprecated): dropping it, as S once
    offered, left an entry KAS044 then reported as not saying so."""
    description = f"(Stale: superseded, under review.) {GUIDE_DESCRIPTION}"
    root = _package(tmp_path, description, f"status: deprecated\n{STALE}")
    pkg = Package.open(root)
    meta = {**pkg.documents["guide.md"].meta, "stale_after": _fresh(root)}
    assert note_fixes(pkg, "guide.md", meta, TODAY) == []
    _apply(root, "stale_after", _fresh(root))
    assert description in _entry(root) and _kas044(root) == []


def test_d_says_so_in_an_entry_without_a_note_and_check_agrees(tmp_path: Path) -> None:
    root = _package(tmp_path, GUIDE_DESCRIPTION, "")
    pkg = Package.open(root)
    [fix] = note_fixes(
        pkg, "guide.md", {**pkg.documents["guide.md"].meta, "status": "deprecated"}, TODAY
    )
    assert fix.problem == "unsaid" and fix.description == f"Deprecated: {GUIDE_DESCRIPTION}"
    _apply(root, "status", "deprecated")
    assert _kas044(root) == []


def test_d_leaves_an_entry_that_already_says_stale(tmp_path: Path) -> None:
    root = _package(tmp_path, f"(Stale: under review.) {GUIDE_DESCRIPTION}", STALE)
    pkg = Package.open(root)
    meta = {**pkg.documents["guide.md"].meta, "status": "deprecated"}
    assert note_fixes(pkg, "guide.md", meta, TODAY) == []


def test_a_stale_page_without_a_note_is_left_to_its_curator(tmp_path: Path) -> None:
    """KAS044 reports it; no key can know why the page is stale, so none writes a note."""
    root = _package(tmp_path, GUIDE_DESCRIPTION, STALE)
    assert _kas044(root) == ["guide.md is stale but its entry does not say so"]
    pkg = Package.open(root)
    assert note_fixes(pkg, "guide.md", pkg.documents["guide.md"].meta, TODAY) == []


def test_on_the_demo_check_and_the_fixes_find_the_same_entries(root: Path) -> None:
    """One rule: the entries KAS044 reports as false are those the keys offer to mend.
    The demo's stale pricing page made current, a false note put on a current page."""
    page = root / "billing-support" / "plans-and-pricing.md"
    text = page.read_text()
    start = text.index("stale_after:")
    page.write_text(
        text[:start] + "stale_after: 2027-06-01T00:00:00Z" + text[text.index("\n", start) :]
    )
    index = root / "oncall" / "index.md"
    index.write_text(
        index.read_text().replace(
            "(escalation-policy.md) - ", "(escalation-policy.md) - (Stale: old.) "
        )
    )
    pkg = Package.open(root)
    report = check(pkg, agent_ready=True, today=TODAY)
    flagged = {
        (f.path, f.line)
        for f in report.findings
        if f.code == "KAS044" and "drop the note" in f.message
    }
    offered = {
        (fix.index, fix.line)
        for path, document in pkg.documents.items()
        for fix in note_fixes(pkg, path, document.meta, TODAY)
        if fix.problem == "false"
    }
    assert flagged == offered
    assert {index for index, _ in flagged} == {"billing-support/index.md", "oncall/index.md"}
