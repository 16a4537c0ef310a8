"""Footnotes shown as numbered notes, and assets shown read only: the core and the TUI."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from kas_tui.core.assets import MAX_BYTES, asset_markdown, read_asset
from kas_tui.core.okf.footnotes import footnotes_for_display
from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.body_pane import BodyPane
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"
BODY = (
    "Intro with a claim[^a] and `code [^a]` and another[^b].\n"
    "\n"
    "```\n"
    "[^a] in a fence\n"
    "```\n"
    "\n"
    "[^a]: The first note,\n"
    "    continued.\n"
    "[^b]: Second *note*.\n"
    "\n"
    "After [^src].\n"
)


def test_references_become_numbered_markers_and_notes_a_list_at_the_end() -> None:
    shown = footnotes_for_display(BODY, {"src": "Orbit refund matrix"})
    lines = shown.splitlines()
    assert (
        lines[0] == "Intro with a claim[¹](#footnotes) and `code [^a]` and another[²](#footnotes)."
    )
    assert lines[3] == "[^a] in a fence"  # code is left alone
    assert lines[6:9] == ["", "", ""]  # the definitions are blanked where they stood
    assert lines[10] == "After [³](#footnotes)."  # every line keeps its number
    tail = shown.split("### Footnotes\n\n", 1)[1]
    assert tail.splitlines() == [
        "1. The first note, continued.",
        "2. Second *note*.",
        "3. source `src`: Orbit refund matrix",
    ]


def test_a_body_without_footnotes_is_returned_unchanged() -> None:
    assert footnotes_for_display("# Title\n\nNo notes [here](x.md).\n") == (
        "# Title\n\nNo notes [here](x.md).\n"
    )
    # a bracket that is not a reference (no definition, not read as one) changes nothing
    text = "A list: [^ not a label]\n"
    assert footnotes_for_display(text) == text


@given(
    st.lists(st.sampled_from(["text", "[^a]", "[^b]", "`[^a]`", "\n", "[^a]: note\n"]), max_size=12)
)
def test_line_numbers_never_move(parts: list[str]) -> None:
    body = " ".join(parts)
    shown = footnotes_for_display(body)
    before = body.splitlines()
    after = shown.split("\n---\n\n### Footnotes", 1)[0].splitlines()
    # each line stays at its number: as it was, blanked (a definition), or with markers
    for was, now in zip(before, after, strict=False):
        assert now in (was, "") or "(#footnotes)" in now
    assert len(before) - len(after) <= 1  # only a blanked last line may end the text


def test_a_text_asset_is_fenced_with_its_language_and_named_as_written(tmp_path: Path) -> None:
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "pager-duty_policy.yaml").write_text("a: 1\nb: ```\n")
    view = read_asset(tmp_path, "refs/pager-duty_policy.yaml")
    shown = asset_markdown(view)
    assert shown.startswith("`refs/pager-duty_policy.yaml` · 12 bytes")
    assert "\\-" not in shown and "\\_" not in shown  # never escaped: it is code
    assert "\n````yaml\na: 1\nb: ```\n````\n" in shown  # a fence longer than any in the text


def test_binary_large_missing_and_escaping_assets_say_why(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    root = tmp_path / "pkg"
    (root / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    (root / "big.csv").write_text("row,value\n" * (MAX_BYTES // 5))
    (tmp_path / "secret.txt").write_text("outside")
    (root / "link.txt").symlink_to(tmp_path / "secret.txt")
    assert "not shown: a binary file" in asset_markdown(read_asset(root, "photo.png"))
    big = asset_markdown(read_asset(root, "big.csv"))
    assert "the rest is left out" in big and big.count("row,value") < MAX_BYTES // 5
    assert "not shown: it leaves the package" in asset_markdown(read_asset(root, "link.txt"))
    assert "outside" not in asset_markdown(read_asset(root, "link.txt"))
    assert "not shown:" in asset_markdown(read_asset(root, "gone.txt"))


async def test_the_body_shows_numbered_notes_and_an_asset_opens_read_only(tmp_path: Path) -> None:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    app = KasApp(Package.open(tmp_path / "demo_kb"), today=dt.date(2026, 11, 30), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))
        app.go("incidents/severity-levels.md", reveal=True)
        await pilot_wait_until(pilot, lambda: "### Footnotes" in body.source)
        assert "[^sev-rfc]" not in body.source
        assert "1. RFC-0042: Incident severity levels" in body.source
        # the file itself is untouched
        text = (tmp_path / "demo_kb/orbit-handbook/incidents/severity-levels.md").read_text()
        assert "[^sev-rfc]: RFC-0042" in text
        # an asset from the files view: its text, fenced, the name as written
        await pilot.press("f")
        app.query_one("FilesView").select_path("references/slo-targets.csv")
        await pilot_wait_until(pilot, lambda: "slo-targets.csv" in body.source)
        assert body.source.startswith("`references/slo-targets.csv` ·")
        assert "\\-" not in body.source and "```\nservice,sli," in body.source
        # and from a link to it (the way a source is cited)
        await pilot.press("f")
        app.go("billing-support/refunds/refund-policy.md", reveal=True)
        await pilot.pause()
        app.follow("/references/refund-matrix.txt")
        await pilot_wait_until(pilot, lambda: "refund-matrix.txt" in body.source)
        assert app.location is None  # shown, not visited: no edit acts on it


async def test_an_asset_followed_right_after_a_page_stays_shown(tmp_path: Path) -> None:
    # following a link reveals its page in the tree; the tree's cursor message came
    # after a second link was followed, to an asset, and showed the page again over it
    # (the suite caught it under load: a 30 s wait for the asset's name timed out)
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    app = KasApp(Package.open(tmp_path / "demo_kb"), today=dt.date(2026, 11, 30), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        body = app.query_one(BodyPane)
        await pilot_wait_until(pilot, lambda: bool(app.screen.query("MetaPane")))
        app.go("billing-support/refunds/refund-policy.md", reveal=True)
        app.follow("/references/refund-matrix.txt")
        await pilot_wait_until(pilot, lambda: "refund-matrix.txt" in body.source)
        for _ in range(10):  # the tree's messages have all come: the asset is still shown
            await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        assert body.source.startswith("`references/refund-matrix.txt` ·")
        assert app.location is None
        # the cursor moved by the user still shows what it is on
        app.query_one("NavTree").focus()
        await pilot.press("down")
        await pilot_wait_until(pilot, lambda: app.location is not None)
