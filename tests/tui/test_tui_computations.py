"""An Attested Computation in the app at 80×24: the frontmatter pane shows its contract
first and Enter there opens the computation; the form has a contract section; the create
form asks for a runtime only when the type is an Attested Computation."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from textual.widgets import Input

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen
from kas_tui.tui.screens.create import CreateScreen
from kas_tui.tui.screens.meta_editor import MetaEditor
from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.fields import TypeRow
from kas_tui.tui.widgets.meta_pane import MetaPane
from tests.helpers.screen import rows_of, screen_text
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 12, 5)
SIZE = (80, 24)
BURN = "slos/burn-rate-computation.md"
REFUND = "billing-support/refunds/refund-rate-computation.md"


async def test_the_pane_shows_the_contract_and_enter_jumps_to_the_block(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        app.go(BURN, reveal=True)
        pane = app.query_one(MetaPane)
        # the contract first, readable in the short pane (waited for: on a busy machine
        # the panes are drawn some frames after the document is chosen)
        await pilot_wait_until(pilot, lambda: "runtime      python" in screen_text(app))
        assert pane.contract is not None and pane.contract.runtime == "python"
        assert "Attested Computation contract" in screen_text(app)
        body = app.query_one(BodyPane)

        def block_row() -> int:  # the block's first line, in the body's rows on screen
            rows = rows_of(app, body)
            return next((n for n, row in enumerate(rows) if "def burn_rate" in row), -1)

        await pilot_wait_until(pilot, lambda: "Computation" in "".join(rows_of(app, body)[:4]))
        await pilot_wait_until(pilot, lambda: block_row() > 3)
        app.query_one("#meta").focus()
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: 0 < block_row() <= 3)


async def test_enter_opens_a_computation_file_and_is_offered_only_there(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        app.go(REFUND, reveal=True)
        await pilot.pause()
        app.query_one("#meta").focus()
        await pilot_wait_until(pilot, lambda: "Computation" in screen_text(app).splitlines()[-1])
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: "SELECT" in screen_text(app))
        assert "an asset" in screen_text(app)  # shown read only, as a followed link is
        app.go("slos/slo-overview.md", reveal=True)
        await pilot.pause()
        app.query_one("#meta").focus()
        await pilot_wait_until(
            pilot, lambda: "Computation" not in screen_text(app).splitlines()[-1]
        )


async def test_the_form_has_a_contract_section(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        app.go(BURN, reveal=True)
        await pilot.pause()
        await pilot.press("m")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, MetaEditor))
        form = app.screen
        assert form.row("runtime") is not None and form.row("runtime").text() == "python"
        assert "bad_events" in form.row("parameters").text()
        assert form.row("computation").text() == ""  # offered: the block is the computation
        sections = [str(s.render()) for s in form.query(".me-section")]
        assert sections.index("Attested Computation contract") < sections.index("Other fields")


async def test_create_asks_for_a_runtime_only_for_a_computation(root: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        app.go("slos/slo-overview.md", reveal=True)
        await pilot.pause()
        await pilot.press("c")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("d")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, CreateScreen))
        form = app.screen
        runtime = form.row("runtime")
        assert runtime is not None and not runtime.display
        form.query_one(TypeRow).query_one(Input).value = "Attested Computation"
        await pilot_wait_until(pilot, lambda: runtime.display)
        assert runtime.parse()[1] is not None  # empty: refused, with why
        runtime.query_one(Input).value = "postgres"
        await pilot_wait_until(pilot, lambda: runtime.parse() == ("postgres", None))
