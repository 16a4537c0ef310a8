"""Links both ways in the TUI at 80×24: cited by (l), broken links (b), around (w) (issue 14.5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from textual.widgets import OptionList

from kas_tui.core.package import Package
from kas_tui.features.graph import graph_of
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen
from kas_tui.tui.screens.links import LinksScreen
from kas_tui.tui.screens.pick import PickScreen
from kas_tui.tui.widgets.body_pane import BodyPane
from tests.helpers.acme import changed, files
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
DOC = "incidents/severity-levels.md"


def line_diff(old: bytes, new: bytes) -> tuple[list[str], list[str]]:
    a, b = old.decode().splitlines(), new.decode().splitlines()
    return [x for x in a if x not in b], [x for x in b if x not in a]


def _rows(app: KasApp) -> list[str]:
    options = app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def _pick(app: KasApp, pilot, words: str) -> None:
    """Highlight the first option whose text holds ``words``, then press enter."""
    options = app.screen.query_one(OptionList)
    rows = _rows(app)
    options.highlighted = next(i for i, row in enumerate(rows) if words in row)
    await pilot.press("enter")


async def test_l_shows_what_cites_the_page_and_opens_it_at_the_linking_line(
    demo: Package,
) -> None:
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.go(DOC)
        await pilot.press("l")
        await pilot_wait_until(
            pilot, lambda: isinstance(app.screen, LinksScreen) and app.screen.cited_by is not None
        )  # the package's links are read in the background the first time
        screen = app.screen
        cited = {source for source, _, _ in screen.cited_by}
        assert "incidents/index.md" in cited and "incidents/incident-response.md" in cited
        source, line, said = next(
            c for c in screen.cited_by if c[0] == "incidents/incident-response.md"
        )
        text = (demo.root / source).read_text().splitlines()
        assert said == text[line - 1].strip() and "severity-levels.md" in said
        assert any(f"cited by {source}:{line}" in row for row in _rows(app))
        await _pick(app, pilot, f"{source}:{line}")
        await pilot_wait_until(pilot, lambda: app.location == source)
        body = app.query_one(BodyPane)
        await pilot_wait_until(pilot, lambda: not body.rendering)


async def test_b_lists_broken_links_opens_one_and_removes_another(root: Path) -> None:
    faq = root / "oncall" / "oncall-faq.md"
    faq.write_text(faq.read_text() + "\nSee [the gone page](../incidents/gone.md) first.\n")
    line = faq.read_text().count("\n")
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        (row,) = _rows(app)
        assert f"oncall/oncall-faq.md:{line}" in row and "../incidents/gone.md" in row
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("o")
        await pilot_wait_until(pilot, lambda: app.location == "oncall/oncall-faq.md")
        assert files(root) == before  # opening writes nothing

        await pilot.press("b")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("r")
        await pilot_wait_until(pilot, lambda: "gone.md" not in faq.read_text())
        after = files(root)
        assert changed(before, after) == {"oncall/oncall-faq.md", "log.md"}
        gone, added = line_diff(before["oncall/oncall-faq.md"], after["oncall/oncall-faq.md"])
        assert gone == ["See [the gone page](../incidents/gone.md) first."]
        assert added == ["See the gone page first."]
        assert "Removed the broken link to ../incidents/gone.md" in after["log.md"].decode()
        await pilot.press("b")
        await pilot.pause()
        assert not isinstance(app.screen, PickScreen)
        assert app.messages[-1][1] == "No broken links in the package"
        await pilot.press("ctrl+z")  # one action: the page and log.md, byte for byte
        await pilot_wait_until(pilot, lambda: files(root) == before)


async def test_w_draws_the_neighbourhood_and_opens_a_page(demo: Package) -> None:
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.go(DOC)
        await pilot.press("w")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        rows = _rows(app)
        assert rows[0] == DOC
        assert any(row.startswith("├─ ← incidents/index.md") for row in rows)
        assert any(row.startswith("│  ") for row in rows)  # the second step, indented
        await _pick(app, pilot, "→ security/security-incident-handling.md")
        await pilot_wait_until(
            pilot, lambda: app.location == "security/security-incident-handling.md"
        )


async def test_a_broken_link_is_pointed_at_the_file_it_meant(root: Path) -> None:
    faq = root / "oncall" / "oncall-faq.md"
    faq.write_text(faq.read_text() + "\nSee [levels](../incidents/severity-level.md#sev1).\n")
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("p")
        await pilot_wait_until(
            pilot, lambda: isinstance(app.screen, PickScreen) and "Point" in app.screen.title_text
        )
        # issue 32, item 16: the likeliest file first, not the alphabet's
        assert _rows(app)[0].startswith("incidents/severity-levels.md")
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: "severity-level.md" not in faq.read_text())
        gone, added = line_diff(before["oncall/oncall-faq.md"], files(root)["oncall/oncall-faq.md"])
        assert gone == ["See [levels](../incidents/severity-level.md#sev1)."]
        assert added == ["See [levels](../incidents/severity-levels.md#sev1)."]
        assert not graph_of(app.package).broken
        await pilot.press("ctrl+z")
        await pilot_wait_until(pilot, lambda: files(root) == before)
