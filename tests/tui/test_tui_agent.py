"""Pilot tests of the agent walk and replay screens on a copy of demo_kb."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
from pathlib import Path

from rich.console import Console
from textual.widgets import OptionList, Static, TextArea

from kas_tui.core.package import Package
from kas_tui.core.user_dirs import data_dir
from kas_tui.features.agent import PEEK, READFILE, SUBMIT
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.agent import AgentWalkScreen
from kas_tui.tui.screens.agent_view import session
from kas_tui.tui.screens.ask import AskScreen
from kas_tui.tui.screens.choose import ConfirmScreen
from kas_tui.tui.screens.replay import ReplayScreen
from kas_tui.tui.widgets.nav_tree import NavTree
from kas_tui.tui.widgets.trail import TrailTable
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"
TODAY = dt.date(2026, 11, 30)
SIZE = (160, 48)
BILLING = "billing-support/index.md"
FAQ = "billing-support/billing-faq.md"


def new_app(package: Package) -> KasApp:
    return KasApp(package, today=TODAY, watch=False)


def rendered(renderable) -> str:
    console = Console(record=True, width=1000, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def text_of(screen, selector: str) -> str:
    return rendered(screen.query_one(selector, Static).content)


def offered(screen: AgentWalkScreen) -> set[tuple[str, str | None]]:
    return {(action.tool, action.path) for action in screen.actions}


async def choose(pilot, path: str | None, tool: str = READFILE) -> None:
    """Move the highlight of the next-calls list to the call, with the arrow keys; enter."""
    screen = pilot.app.screen
    options = screen.query_one("#agent-actions", OptionList)
    index = next(i for i, a in enumerate(screen.actions) if a.path == path and a.tool == tool)
    target = options.get_option_index(str(index))
    if target < abs(options.highlighted - target):
        await pilot.press("home")
    while options.highlighted != target:
        await pilot.press("down" if options.highlighted < target else "up")
    await pilot.press("enter")
    await pilot.pause()


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in text])


QUESTION = "Can this customer get a refund, who approves?"


async def test_full_keyboard_walk_submit_and_export(demo, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = new_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AgentWalkScreen)
        # the question the walk answers: asked with w, kept in the export's header
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen)
        await type_text(pilot, QUESTION)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.walk.question == QUESTION
        assert QUESTION in text_of(screen, "#agent-mode")
        # The agent starts from the catalog entry only: the system prompt row, three calls.
        assert screen.shown == 0
        assert "<available_skills>" in screen.query_one("#agent-text", TextArea).text
        assert [a.label for a in screen.actions] == [
            "activate the skill (read SKILL.md)",
            "list the package root",
            "submit an answer",
        ]
        await pilot.press("enter")  # the first call is highlighted: activate the skill
        await pilot.pause()
        assert [s.path for s in screen.walk.steps] == ["SKILL.md"]
        shown = screen.query_one("#agent-text", TextArea).text
        assert shown == (demo.root / "SKILL.md").read_text(encoding="utf-8")
        assert "turn 1 / 15" in text_of(screen, "#agent-budget")
        # The first call SKILL.md named is highlighted next: the root index.
        options = screen.query_one("#agent-actions", OptionList)
        assert screen.actions[int(options.highlighted_option.id)].path == "index.md"
        await pilot.press("enter")
        await choose(pilot, BILLING)
        header = text_of(screen, "#agent-call")
        assert 'readfile({"path": "billing-support/index.md"})' in header
        assert "chosen by: Billing support - Plans, seats, trials and prices" in header
        await choose(pilot, FAQ)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen)
        await type_text(pilot, "[b]30d[/b]")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.walk.finished
        summary = screen.walk.summary()
        assert (summary.turns, summary.documents_read, summary.bundles) == (
            5,
            (FAQ,),
            ("", BILLING.split("/")[0]),
        )
        assert summary.answer == "[b]30d[/b]"
        side = text_of(screen, "#agent-summary")
        assert "[b]30d[/b]" in side  # markup shown literally
        assert "5 / 15" in side and "1 read · 0 peeked only" in side
        assert f"{summary.total_tokens:,} in calls + {summary.catalog_tokens:,} catalog" in side
        assert "Bundles (2)  (root), billing-support" in side

        await pilot.press("x")
        await pilot.pause()
        ask = app.screen
        assert isinstance(ask, AskScreen)
        default = ask.query_one("#ask-input").value
        # the user data folder, not the working directory (often a git checkout)
        home = data_dir() / "walks" / "orbit-handbook"
        assert default.startswith(str(home / "orbit-handbook-walk-")) and default.endswith(".jsonl")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        written = Path(default)
        assert not list(tmp_path.glob("*.jsonl"))
        assert screen.exported == str(written)
        header, *records = [json.loads(line) for line in written.read_text().splitlines()]
        assert header["kind"] == "header" and header["question"] == QUESTION
        steps = screen.walk.steps
        assert [r["tool"] for r in records] == [READFILE] * 4 + [SUBMIT]
        assert [r["args"] for r in records] == [
            {"path": "SKILL.md"},
            {"path": "index.md"},
            {"path": BILLING},
            {"path": FAQ},
            {"answer": "[b]30d[/b]"},
        ]
        assert [r["tokens"] for r in records] == [s.tokens for s in steps]
        assert records[-1]["cumulative"] == summary.total_tokens == sum(s.tokens for s in steps)
        assert all(r["ok"] and r["revealed"] for r in records)
        # The trail shows the same numbers, one row per call after the system prompt.
        trail = screen.query_one(TrailTable)
        assert trail.row_count == 6
        assert str(trail.get_cell("3", "tokens")).strip() == f"{steps[2].tokens:,}"
        assert str(trail.get_cell("5", "cumulative")).strip() == f"{summary.total_tokens:,}"

        # Closing marks what the agent read in the tree; a resumes the same walk.
        await pilot.press("escape")
        await pilot.pause()
        tree = app.query_one(NavTree)
        assert tree.visited[FAQ] == "read" and tree.visited["SKILL.md"] == "read"
        labels = [str(node.label) for node in tree._walk(tree.root)]
        assert any("Billing FAQ for support agents ◆ read" in label for label in labels)
        assert any("Billing support ◆ index read" in label for label in labels)
        await pilot.press("a")
        await pilot.pause()
        assert app.screen.walk is screen.walk and app.screen.walk.turns == 5

        # R offers the file just exported; the replay steps through the same calls.
        await pilot.press("escape", "R")
        await pilot.pause()
        assert app.screen.query_one("#ask-input").value == str(written)
        await pilot.press("enter")
        await pilot.pause()
        replayed = app.screen
        assert isinstance(replayed, ReplayScreen)
        assert [(s.tool, s.args, s.tokens) for s in replayed.steps] == [
            (s.tool, s.args, s.tokens) for s in steps
        ]
        assert replayed.shown == 0
        assert QUESTION in text_of(replayed, "#agent-question")  # from the header
        text = replayed.query_one("#agent-text", TextArea)
        await pilot.press("n")
        await pilot.pause()
        assert replayed.shown == 1 and text.text == steps[0].text
        await pilot.press("right", "n")
        await pilot.pause()
        assert replayed.shown == 3 and text.text == steps[2].text
        # line 4 of the file: its header, then one line a call
        assert f"logged at: line 4 of {written.name}" in text_of(replayed, "#agent-call")
        await pilot.press("p", "left")
        await pilot.pause()
        assert replayed.shown == 1
        await pilot.press("end")
        await pilot.pause()
        assert replayed.shown == 5 and replayed.query_one(TrailTable).cursor_row == 5
        await pilot.press("home")
        await pilot.pause()
        assert replayed.shown == 0
        assert not replayed.query_one("#agent-flagged").display


async def test_back_peek_unrevealed_and_markup(tmp_path) -> None:
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    index = tmp_path / "demo_kb" / "orbit-handbook" / "index.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text.replace("Plans, seats,", "[bold]Plans[/bold], seats,"), "utf-8")
    app = new_app(Package.open(tmp_path / "demo_kb"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", "enter")
        await pilot.pause()
        screen = app.screen
        # SKILL.md names the root index and a few documents; nothing in billing-support's index.
        assert (READFILE, "index.md") in offered(screen)
        assert (READFILE, FAQ) not in offered(screen)
        assert (READFILE, BILLING) not in offered(screen)
        assert not screen.walk.can_open(FAQ)
        await choose(pilot, "index.md")
        # Texts from the package show literally: in the cues and in the text pane.
        options = screen.query_one("#agent-actions", OptionList)
        billing = next(i for i, a in enumerate(screen.actions) if a.path == BILLING)
        prompt = rendered(options.get_option(str(billing)).prompt)
        assert "Billing support - [bold]Plans[/bold], seats" in prompt
        assert "[bold]Plans[/bold]" in screen.query_one("#agent-text", TextArea).text
        await choose(pilot, BILLING)
        assert (READFILE, FAQ) in offered(screen)
        await pilot.press("backspace")
        await pilot.pause()
        assert screen.walk.turns == 2 and screen.shown == 2
        assert (READFILE, FAQ) not in offered(screen)
        assert (READFILE, BILLING) in offered(screen)

        # peek: off by default, p offers it for documents named so far.
        severity = "incidents/severity-levels.md"
        assert "peek" not in screen.walk.tools and (PEEK, severity) not in offered(screen)
        await pilot.press("p")
        await pilot.pause()
        assert "peek" in screen.walk.tools and (PEEK, severity) in offered(screen)
        assert "peek on" in text_of(screen, "#agent-mode")
        await choose(pilot, severity, PEEK)
        step = screen.walk.steps[-1]
        assert step.tool == PEEK and step.text.startswith("---\n") and step.text.endswith("---\n")
        assert screen.query_one("#agent-text", TextArea).text == step.text
        await pilot.press("p")  # refused: the trail holds a peek
        await pilot.pause()
        assert screen.walk.peek_enabled
        await pilot.press("backspace", "p")
        await pilot.pause()
        assert not screen.walk.peek_enabled and (PEEK, severity) not in offered(screen)
        assert "peek off" in text_of(screen, "#agent-mode")

        await pilot.press("backspace", "backspace")
        await pilot.pause()
        assert screen.walk.turns == 0 and screen.shown == 0
        await pilot.press("backspace")  # nothing left to undo: a message, not an error
        await pilot.pause()
        assert screen.walk.turns == 0 and len(screen.actions) == 3
        # App keys that would act behind the screen are swallowed (v would validate, t
        # open the review queue; / filters the next calls here).
        await pilot.press("v", "t")
        await pilot.pause()
        assert app.screen is screen and not app.query_one("#findings").display
        # N asks before discarding a walk that was not exported: k keeps it, d discards
        await choose(pilot, "SKILL.md")
        await pilot.press("N")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Discard the walk in progress (1 turn, not exported)?" in str(
            app.screen.query_one("#choice-message", Static).render()
        )
        await pilot.press("k")
        await pilot.pause()
        assert app.screen is screen and screen.walk.turns == 1
        await pilot.press("N")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is screen and screen.walk.turns == 0
        await pilot.press("N")  # nothing to lose: no question
        await pilot.pause()
        assert app.screen is screen and screen.walk.turns == 0
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, AgentWalkScreen) and session(app).walk is None


async def test_budget_and_export_errors(demo, tmp_path) -> None:
    app = new_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(AgentWalkScreen(demo, budget=3))  # the screen takes a budget
        await pilot.pause()
        screen = app.screen
        await pilot.press("minus")
        await pilot.pause()
        assert screen.walk.budget == 2
        meter = screen.query_one("#agent-budget", Static)
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert "turn 2 / 2" in text_of(screen, "#agent-budget")
        assert not meter.has_class("over-budget")
        await choose(pilot, BILLING)
        assert "turn 3 / 2" in text_of(screen, "#agent-budget")
        assert "1 over budget" in text_of(screen, "#agent-budget")
        assert meter.has_class("over-budget")
        turn = screen.query_one(TrailTable).get_cell("3", "turn")
        assert "red" in str(turn.style)
        await pilot.press("plus")
        await pilot.pause()
        assert not meter.has_class("over-budget") and screen.walk.budget == 3

        await pilot.press("x")
        await pilot.pause()
        ask = app.screen
        field = ask.query_one("#ask-input")
        field.value = str(tmp_path / "no-such-folder" / "walk.jsonl")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is ask
        error = text_of(ask, "#ask-error")
        assert "the folder" in error and "no-such-folder does not exist" in error
        field.value = str(tmp_path)  # a folder: the default name is written inside it
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        written = Path(screen.exported)
        assert written.parent == tmp_path and written.name.startswith("orbit-handbook-walk-")
        header, *calls = [json.loads(line) for line in written.read_text().splitlines()]
        assert header["kind"] == "header" and [c["turn"] for c in calls] == [1, 2, 3]

        # The budget set in a walk opened with a is remembered for the next one.
        await pilot.press("escape", "a", "plus", "escape")
        await pilot.pause()
        assert session(app).budget == 16


async def test_replay_flags_missing_outside_guessed_and_bad_lines(demo, tmp_path) -> None:
    lines = [
        {"tool": "readfile", "args": {"path": "SKILL.md"}},
        {"name": "read_file", "arguments": json.dumps({"file_path": FAQ})},
        "this is not JSON",
        {"tool": "readfile", "args": {"path": "nope/missing.md"}},
        {"tool": "readfile", "args": {"path": "../../etc/passwd"}},
        {"tool": "peek", "args": {"path": "billing-support/refunds/refund-policy.md"}},
    ]
    path = tmp_path / "hand.jsonl"
    path.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n",
        encoding="utf-8",
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n[1, 2]\n", encoding="utf-8")
    app = new_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        ask = app.screen
        field = ask.query_one("#ask-input")
        await pilot.press(*"/tmp/x")  # typed at once: the path, no "./" before it
        assert field.value == "/tmp/x"
        field.value = str(tmp_path / "nope.jsonl")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is ask and "no such file" in text_of(ask, "#ask-error")
        field.value = str(bad)  # no call at all: the problems, and the dialog stays
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is ask
        error = text_of(ask, "#ask-error")
        assert "Nothing to replay" in error and "line 1: not valid JSON" in error
        assert "line 2: expected a JSON object" in error
        field.value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        trail = screen.query_one(TrailTable)
        flags = [str(trail.get_cell(str(turn), "flags")) for turn in range(1, 6)]
        assert flags == ["", "guessed", "missing guessed", "outside guessed", ""]
        problems = text_of(screen, "#agent-problems")
        assert "line 3  not valid JSON" in problems
        flagged = text_of(screen, "#agent-flagged")
        assert "3  readfile nope/missing.md  missing guessed" in flagged
        assert "4  readfile ../../etc/passwd  outside guessed" in flagged
        assert "1 unreadable line" in text_of(screen, "#agent-mode")
        await pilot.press("n", "n", "n", "n")
        await pilot.pause()
        assert screen.shown == 4
        assert "outside" in text_of(screen, "#agent-call")
        assert screen.query_one("#agent-text", TextArea).text.startswith(
            "Error: ../../etc/passwd is outside the skill folder"
        )
        assert "line 5 of hand.jsonl" in text_of(screen, "#agent-call")
        await pilot.press("q")
        await pilot.pause()
        visited = app.query_one(NavTree).visited
        assert visited[FAQ] == "read"
        assert visited["billing-support/refunds/refund-policy.md"] == "peeked"


async def test_long_paths_in_the_next_calls_keep_their_file_name_at_80_columns(
    tmp_path: Path,
) -> None:
    root = tmp_path / "deep-kb"
    folder = "customer-billing-support-and-refunds/enterprise-refund-requests-archive"
    name = "refund-policy-for-enterprise-customers.md"
    files = {
        "SKILL.md": "---\nname: deep-kb\ndescription: Refunds. Use for refund questions.\n---\n"
        "# Deep\n\nStart at `/index.md`.\n",
        "index.md": "# Deep\n\n* [Billing](customer-billing-support-and-refunds/) - Billing.\n",
        "customer-billing-support-and-refunds/index.md": "# Billing\n\n"
        "* [Archive](enterprise-refund-requests-archive/) - Old enterprise refund requests.\n",
        f"{folder}/index.md": f"# Archive\n\n* [Policy]({name}) - Who may refund what.\n",
        f"{folder}/{name}": "---\ntype: Policy\ntitle: Policy\ndescription: Who may refund.\n---\n"
        "# Policy\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    app = new_app(Package.open(root))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        for path in (
            "SKILL.md",
            "index.md",
            "customer-billing-support-and-refunds/index.md",
            f"{folder}/index.md",
        ):
            await choose(pilot, path)
            await pilot.pause()
        options = screen.query_one("#agent-actions", OptionList)
        labels = [
            rendered(options.get_option_at_index(i).prompt) for i in range(options.option_count)
        ]
        shown = next(label for label in labels if name in label).splitlines()[0]
        assert f"…/{name}" in shown and folder not in shown  # the name whole, folders elided


async def test_a_document_skill_md_named_shows_its_index_entry_once_an_index_names_it(
    demo: Package,
) -> None:
    policy = "oncall/escalation-policy.md"
    app = new_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", "enter")
        await pilot.pause()
        screen = app.screen
        options = screen.query_one("#agent-actions", OptionList)

        def cue() -> str:
            index = next(i for i, a in enumerate(screen.actions) if a.path == policy)
            return rendered(options.get_option(str(index)).prompt)

        assert "mentioned in SKILL.md" in cue()  # the walk starts with SKILL.md read
        await choose(pilot, "index.md")
        await choose(pilot, "oncall/index.md")
        # oncall/index.md names it with a description: that is what the agent now knows
        assert "Who gets paged next" in cue() and "entry of oncall/index.md" in cue()
        assert "mentioned in" not in cue()


async def test_typing_filters_the_next_calls_and_esc_clears_first(demo: Package) -> None:
    app = new_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a", "enter")
        await pilot.pause()
        screen = app.screen
        await choose(pilot, "index.md")
        await choose(pilot, BILLING)
        options = screen.query_one("#agent-actions", OptionList)
        everything = options.option_count
        turns = screen.walk.turns
        await pilot.press("slash", *"refund-pol")
        await pilot.pause()
        listed = [screen.actions[int(o.id)] for o in options._options if o.id is not None]
        paths = {a.path for a in listed if a.tool != "submit_answer"}
        assert paths == {"billing-support/refunds/refund-policy.md"}
        assert "1 of" in str(screen.query_one("#agent-side").border_title)
        # backspace edits the filter, it does not undo a turn
        await pilot.press("backspace", "backspace", "backspace", "backspace", "space", *"pol")
        await pilot.pause()
        assert screen.walk.turns == turns and screen.filter == "refund pol"
        assert "billing-support/refunds/index.md" in {
            screen.actions[int(o.id)].path for o in options._options if o.id is not None
        }
        # enter goes to the list, on the first call left; enter there makes it
        await pilot.press("enter")
        await pilot.pause()
        assert options.has_focus
        first = screen.actions[int(options.highlighted_option.id)]
        await pilot.press("enter")
        await pilot_wait_until(pilot, lambda: screen.walk.turns == turns + 1)
        assert screen.walk.steps[-1].path == first.path
        # the filter stays for the next choice; esc clears it, and only a second esc closes
        await pilot.press("escape")
        await pilot.pause()
        assert screen.filter == "" and app.screen is screen
        assert options.option_count >= everything - 5
        assert not screen.query_one("#agent-filter").display


async def test_a_replay_with_skill_md_in_the_prompt_counts_it_once_everywhere(
    root: Path, tmp_path: Path
) -> None:
    """The bar said "+ 119 catalog" while the summary counted the catalog entry and the
    SKILL.md the harness put in the prompt (1,508): both now say the same, and what."""
    from kas_tui.features.agent.replay import replay_file

    walk = tmp_path / "walk.jsonl"
    walk.write_text(
        '{"kind": "header", "preloaded": ["SKILL.md"]}\n'
        '{"tool": "readfile", "args": {"path": "index.md"}}\n'
    )
    package = Package.open(root)
    replayed = replay_file(package, walk)
    fixed = replayed.summary.catalog_tokens
    assert fixed > replayed.catalog.tokens  # SKILL.md's text counted with the entry
    app = KasApp(package, today=dt.date(2026, 12, 5), watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReplayScreen(package, replayed))
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        bar = str(app.screen.query_one("#agent-budget", Static).render())
        assert f"+ {fixed:,} catalog + SKILL.md" in bar
