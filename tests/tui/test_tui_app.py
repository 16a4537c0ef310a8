"""Pilot tests of the TUI on a copy of demo_kb."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.meta_pane import MetaPane
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.waiting import pilot_wait_until

DEMO = Path(__file__).resolve().parents[2] / "demo_kb"
TODAY = dt.date(2026, 11, 30)


def _text(widget: MetaPane) -> str:
    console = Console(record=True, width=200)
    console.print(widget.content)
    return console.export_text()


async def test_opens_on_skill_and_lists_bundles(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        tree = app.query_one(NavTree)
        titles = [str(node.label).split(" — ")[0] for node in tree.root.children]
        assert titles == ["On-call", "Incidents", "SLOs", "Releases", "Billing support", "Security"]
        meta = _text(app.query_one(MetaPane))
        assert "orbit-handbook" in meta and "/ 1,024 characters" in meta


async def test_keyboard_walk_to_a_document(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("down", "down", "enter", "down", "down")
        await pilot.pause()
        assert app.location == "oncall/escalation-policy.md"
        meta = _text(app.query_one(MetaPane))
        assert "Policy · stable · human-reviewed · fresh for 182 days" in meta
        assert "listed by incidents/index.md, oncall/index.md" in meta


async def test_stale_and_deprecated_marks(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        tree = app.query_one(NavTree)
        assert tree.select_path("billing-support/plans-and-pricing.md")
        assert tree.select_path("oncall/opsgenie-runbook.md")
        await pilot.pause()
        labels = [str(n.label) for n in tree._walk(tree.root)]
        assert any("Plans and pricing" in lab and "[stale]" in lab for lab in labels)
        assert any("[deprecated]" in lab for lab in labels)


async def test_follow_link_in_body(demo: Package) -> None:
    app = KasApp(demo, today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go("billing-support/billing-faq.md")
        await pilot.pause()
        from textual.widgets import Markdown

        md = app.query_one(Markdown)
        md.post_message(Markdown.LinkClicked(md, "/billing-support/refunds/refund-policy.md"))
        await pilot.pause()
        await pilot.pause()
        assert app.location == "billing-support/refunds/refund-policy.md"
        assert app.query_one(NavTree).cursor_node.data.path == app.location


async def test_broken_documents_and_markup_titles_show_literally(tmp_path: Path) -> None:
    root = tmp_path / "bad-kb"
    root.mkdir()
    (root / "SKILL.md").write_text("---\nname: bad-kb\ndescription: Broken. Use in tests.\n---\n")
    (root / "index.md").write_text(
        "# Docs\n\n* [\\[bold\\]Bad\\[/bold\\] \\\\ x](ok.md) - [red]desc[/red]\n"
    )
    (root / "ok.md").write_text('---\ntype: X\ntitle: "[bold]Bad[/bold] \\\\ x"\n---\nbody\n')
    (root / "enc.md").write_bytes(b"\xff\xfe not utf-8")
    (root / "yaml.md").write_text("---\ntype: [unclosed\n---\n")
    app = KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        tree = app.query_one(NavTree)
        labels = [str(n.label) for n in tree._walk(tree.root)]
        assert "○ [bold]Bad[/bold] \\ x — [red]desc[/red]" in labels
        assert any("Enc" in lab and "not in index.md" in lab for lab in labels)
        app.go("ok.md")
        await pilot.pause()
        assert "[bold]Bad[/bold] \\ x" in _text(app.query_one(MetaPane))
        app.go("yaml.md")
        await pilot.pause()
        meta = _text(app.query_one(MetaPane))
        assert "error: line 2: invalid YAML" in meta  # the line of the [
        app.go("enc.md")
        await pilot.pause()
        assert "not valid UTF-8" in _text(app.query_one(MetaPane))


# --- flows -------------------------------------------------------------------------------


def _palette_highlights(app: KasApp, title: str) -> bool:
    """Whether the command palette's search is over, with ``title`` highlighted."""
    from textual.command import CommandList, CommandPalette

    palette = app.screen
    if not isinstance(palette, CommandPalette) or palette._show_busy:
        return False
    commands = palette.query_one(CommandList)
    number = commands.highlighted
    return number is not None and title in str(commands.get_option_at_index(number).prompt)


async def _settle(pilot, app) -> None:
    """Let workers finish and messages drain."""
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def test_find_opens_and_reveals_a_document(demo: Package) -> None:
    from kas_tui.tui.screens.find import FindScreen

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("slash")
        assert isinstance(app.screen, FindScreen)
        await pilot.press(*"sev lev")
        await pilot.pause()
        assert app.screen.paths[0] == "incidents/severity-levels.md"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        assert app.location == "incidents/severity-levels.md"
        assert app.query_one(NavTree).cursor_node.data.path == app.location
        # escape leaves find without moving; recent places are offered first
        await pilot.press("slash")
        assert app.screen.paths[:1] == ["incidents/severity-levels.md"]
        await pilot.press("escape")
        assert app.location == "incidents/severity-levels.md"


async def test_back_and_forward_after_following_a_link(demo: Package) -> None:
    from textual.widgets import Markdown

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go("billing-support/billing-faq.md")
        await pilot.pause()
        md = app.query_one(Markdown)
        md.post_message(Markdown.LinkClicked(md, "refunds/refund-policy.md"))
        await pilot.pause()
        await pilot.pause()
        assert app.location == "billing-support/refunds/refund-policy.md"
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert app.location == "billing-support/billing-faq.md"
        assert app.query_one(NavTree).cursor_node.data.path == app.location
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert app.location == "billing-support/refunds/refund-policy.md"


async def test_links_picker_follows_a_link_from_the_keyboard(demo: Package) -> None:
    from textual.widgets import OptionList

    from kas_tui.tui.screens.links import LinksScreen

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go("billing-support/billing-faq.md")
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LinksScreen)
        links = app.screen.links
        index = next(i for i, link in enumerate(links) if link[1].endswith("refund-policy.md"))
        assert links[index][2] == "internal"
        option_list = app.screen.query_one(OptionList)
        option_list.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        assert app.location == "billing-support/refunds/refund-policy.md"


async def test_outline_lists_the_headings(demo: Package) -> None:
    from textual.widgets import Tree
    from textual.widgets.markdown import MarkdownTableOfContents

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go("incidents/incident-response.md")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        outline = app.query_one(MarkdownTableOfContents)
        assert outline.display
        labels = [str(n.label) for n in outline.query_one(Tree).root.children]
        assert labels and any("Incident response" in label for label in labels)
        await pilot.press("o")
        assert not outline.display


async def test_files_view_marks_unlisted_missing_and_broken(tmp_path: Path) -> None:
    from kas_tui.tui.widgets.files_view import FilesView

    shutil.copytree(DEMO, tmp_path / "demo_kb")
    root = tmp_path / "demo_kb" / "orbit-handbook"
    (root / "oncall" / "stray.md").write_text("---\ntype: Note\ntitle: Stray\n---\n")
    (root / "oncall" / "broken.md").write_text("---\ntype: [\n---\n")
    with (root / "oncall" / "index.md").open("a") as handle:
        handle.write("- [Gone](gone.md) - A page that was deleted.\n")
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.press("f")
        await pilot.pause()
        files = app.query_one(FilesView)
        assert files.display and files.has_focus
        assert files.select_path("oncall/stray.md")
        await pilot.pause()
        labels = {n.data.path: str(n.label) for n in files._iter_nodes(files.root) if n.data}
        assert "not in index.md" in labels["oncall/stray.md"]
        assert labels["oncall/broken.md"].startswith("✗")
        assert "missing: listed by oncall/index.md" in labels["oncall/gone.md"]
        assert "not in index.md" not in labels["oncall/escalation-policy.md"]
        await pilot.press("f")
        assert not files.display


async def test_validation_panel_lists_findings_and_jumps(tmp_path: Path) -> None:
    from textual.widgets import DataTable

    from kas_tui.tui.widgets.findings import FindingsPanel

    shutil.copytree(DEMO, tmp_path / "demo_kb")
    root = tmp_path / "demo_kb" / "orbit-handbook"
    (root / "oncall" / "stray.md").write_text(
        "---\ntype: Note\ntitle: Stray\n---\nSee [x](nope.md).\n"
    )
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("v")
        await _settle(pilot, app)
        panel = app.query_one(FindingsPanel)
        assert panel.display
        codes = {(f.code, f.path) for f in panel.findings}
        assert ("OKF120", "oncall/stray.md") in codes  # the broken link
        assert ("KAS031", "oncall/index.md") in codes  # not listed
        assert panel.findings[0].severity == "error"  # errors first
        table = panel.query_one(DataTable)
        assert table.row_count == len(panel.findings) and table.has_focus
        row = next(i for i, f in enumerate(panel.findings) if f.code == "OKF120")
        table.move_cursor(row=row)
        await pilot.press("enter")
        await pilot.pause()
        assert app.location == "oncall/stray.md"
        tree = app.query_one(NavTree)
        assert tree.marks["oncall/stray.md"] == ("error", 3)
        oncall = next(n for n in tree.root.children if n.data.path == "oncall")
        assert "✗" in str(oncall.label) or "!" in str(oncall.label)


async def test_validation_summary_counts_in_the_singular_for_one(tmp_path: Path) -> None:
    from textual.widgets import Static

    shutil.copytree(DEMO, tmp_path / "demo_kb")
    app = KasApp(Package.open(tmp_path / "demo_kb" / "orbit-handbook"), today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("v")
        await _settle(pilot, app)
        status = str(app.query_one("#findings-status", Static).render())
        assert "0 errors · 0 warnings · 1 info " in status  # the demo's one stale price list
        assert "1 infos" not in status and "39 documents in" in status


async def test_shown_findings_follow_the_package_after_a_change(tmp_path: Path) -> None:
    """Issue 16 item 13: the panel said "41 documents" after an import was undone."""
    from kas_tui.tui.widgets.findings import FindingsPanel

    shutil.copytree(DEMO, tmp_path / "demo_kb")
    root = tmp_path / "demo_kb" / "orbit-handbook"
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("v")
        await _settle(pilot, app)
        panel = app.query_one(FindingsPanel)
        assert [f.code for f in panel.findings] == ["OKF140"]
        app.query_one(NavTree).focus()
        stray = root / "oncall" / "stray.md"
        stray.write_text("---\ntype: Note\ntitle: Stray\n---\nSee [x](nope.md).\n")
        app.action_reload()  # what an edit, an import or an undo also ends with
        await _settle(pilot, app)
        codes = {(f.code, f.path) for f in panel.findings}
        assert ("OKF120", "oncall/stray.md") in codes
        assert app.report is not None and app.report.documents == 40
        assert app.query_one(NavTree).has_focus  # checked again in the background
        stray.unlink()
        app.action_reload()
        await _settle(pilot, app)
        assert [f.code for f in panel.findings] == ["OKF140"]


async def test_palette_runs_actions_and_help_lists_every_key(demo: Package) -> None:
    from textual.command import CommandPalette
    from textual.widgets import Static

    from kas_tui.tui.commands import COMMANDS
    from kas_tui.tui.screens.help import HelpScreen
    from kas_tui.tui.widgets.findings import FindingsPanel

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = _text(app.screen.query_one(Static))
        for command in COMMANDS:
            assert command.help in text and command.key_display in text
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"validate")
        await pilot_wait_until(pilot, lambda: _palette_highlights(app, "Validate"))
        await pilot.press("enter")
        await _settle(pilot, app)
        assert app.query_one(FindingsPanel).display
        assert app.report is not None


async def test_palette_offers_main_screen_actions_only_on_the_main_screen(demo: Package) -> None:
    from kas_tui.tui.commands import KasCommands
    from kas_tui.tui.screens.agent import AgentWalkScreen

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        assert list(KasCommands(app.screen)._commands())
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, AgentWalkScreen)
        assert list(KasCommands(app.screen)._commands()) == []


async def test_help_over_another_screen_lists_that_screens_keys(demo: Package) -> None:
    from textual.widgets import Static

    from kas_tui.tui.screens.help import HelpScreen

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = _text(app.screen.query_one(Static))
        assert "Agent walk" in text and "Submit" in text and "Peek on/off" in text
        assert "Show every key" not in text  # not the main screen's keys
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Show every key" in _text(app.screen.query_one(Static))


@pytest.mark.parametrize(("width", "compact"), [(80, True), (100, True), (160, False)])
async def test_footer_goes_compact_when_narrow_so_quit_still_fits(
    demo: Package, width: int, compact: bool
) -> None:
    from kas_tui.tui.widgets.footer import KasFooter

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(width, 40)) as pilot:
        footer = app.query_one(KasFooter)
        # the footer lays out its keys after the first refresh: wait for them, not for time
        await pilot_wait_until(pilot, lambda: bool(footer.query("FooterKey")))
        assert footer.compact is compact
        keys = [item.key_display for item in footer.query("FooterKey")]
        assert "q" in keys
        assert "question_mark" in [item.key for item in footer.query("FooterKey")]
        right = max(item.region.right for item in footer.query("FooterKey"))
        assert right <= width  # every key is on screen, the last one (Quit) included
        # and none is covered by the palette key docked at the right
        palette = footer.query_one(".-command-palette")
        flow = [k for k in footer.query("FooterKey") if k is not palette]
        assert max(k.region.right for k in flow) <= palette.region.x
        # the tree's keys first; what does not fit is left out from the end, not cut
        # mid-word (help and quit stay)
        assert keys[:4] == ["e", "c", "r", "M"]
        assert all(key not in footer.left_out for key in ("question_mark", "q"))


async def test_the_footer_mounts_its_keys_again_only_when_they_change(demo: Package) -> None:
    """Textual asks the footer to compose after every change of focus; mounting the same
    keys afresh each time was a tenth of the time a screen took to open."""
    from kas_tui.tui.widgets.footer import KasFooter

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        footer = app.query_one(KasFooter)
        await pilot_wait_until(pilot, lambda: bool(footer.query("FooterKey")))
        before = list(footer.query("FooterKey"))
        footer.bindings_changed(app.screen)  # what a change of focus does
        await footer.recompose()
        await pilot.pause()
        assert list(footer.query("FooterKey")) == before  # the same widgets: nothing mounted
        await pilot.resize_terminal(140, 30)  # wide: not compact, other keys fit
        await pilot_wait_until(pilot, lambda: footer.compact is False)
        await pilot_wait_until(pilot, lambda: not set(footer.query("FooterKey")) & set(before))
        assert "question_mark" in [key.key for key in footer.query("FooterKey")]


async def test_the_agent_walk_footer_fits_80_columns_with_help_and_close(demo: Package) -> None:
    from kas_tui.tui.widgets.footer import KasFooter

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await pilot_wait_until(pilot, lambda: type(app.screen).__name__ == "AgentWalkScreen")
        footer = app.screen.query_one(KasFooter)
        await pilot_wait_until(pilot, lambda: bool(footer.query("FooterKey")))
        keys = [item.key for item in footer.query("FooterKey")]
        assert "question_mark" in keys and "escape" in keys
        palette = footer.query_one(".-command-palette")
        flow = [k for k in footer.query("FooterKey") if k is not palette]
        assert max(k.region.right for k in flow) <= palette.region.x


async def test_live_reload_keeps_the_place_and_sees_new_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kas_tui.tui.app as app_module

    monkeypatch.setattr(app_module, "WATCH_INTERVAL", 0.1)
    shutil.copytree(DEMO, tmp_path / "demo_kb")
    root = tmp_path / "demo_kb" / "orbit-handbook"
    app = KasApp(Package.open(root), today=TODAY)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go("oncall/escalation-policy.md", reveal=True)
        await pilot.pause()
        doc = root / "oncall" / "escalation-policy.md"
        doc.write_text(doc.read_text().replace("title: ", "title: Renamed ", 1))
        await pilot_wait_until(pilot, lambda: "Renamed" in _text(app.query_one(MetaPane)))
        assert app.location == "oncall/escalation-policy.md"
        (root / "oncall" / "fresh.md").write_text("---\ntype: Note\ntitle: Fresh page\n---\n")
        tree = app.query_one(NavTree)
        await pilot_wait_until(pilot, lambda: "oncall/fresh.md" in app.package.documents)
        await pilot.pause()
        assert app.location == "oncall/escalation-policy.md"
        assert tree.cursor_node.data.path == "oncall/escalation-policy.md"
        labels = [str(n.label) for n in tree._walk(tree.root)]
        assert any("Fresh page" in label and "not in index.md" in label for label in labels)


def test_docs_keys_md_is_generated_from_the_commands() -> None:
    from kas_tui.tui.commands import keys_markdown

    on_disk = (Path(__file__).resolve().parents[2] / "docs" / "keys.md").read_text("utf-8")
    assert on_disk == keys_markdown(), (
        "docs/keys.md is out of date: python -m kas_tui.tui.commands > docs/keys.md"
    )


async def test_links_picker_reuses_the_packages_links(demo: Package, monkeypatch) -> None:
    from kas_tui.tui.screens.links import LinksScreen

    page = "billing-support/billing-faq.md"
    asked: list[str] = []
    links = demo.links
    monkeypatch.setattr(demo, "links", lambda rel: asked.append(rel) or links(rel))
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        app.go(page)
        await pilot.pause()
        asked.clear()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LinksScreen)
        # the page's links and the graph's (for "cited by", read in the background)
        # both come from Package.links(), the one parser, whose results are kept
        from kas_tui.features.graph import graph_if_made, sources

        await pilot_wait_until(pilot, lambda: graph_if_made(demo) is not None)
        assert asked[0] == page and set(asked) == set(sources(demo))
        expected = [(link.text, link.target) for link, _ in links(page)]
        assert [(text, href) for text, href, _kind in app.screen.links] == expected


async def test_main_screen_keys_never_act_behind_a_full_screen_view(demo: Package) -> None:
    """The panes' keys are the main screen's: a full-screen view pushed over it, even
    one that binds none of them, is never acted behind; help and the palette stay."""
    from textual.screen import Screen
    from textual.widgets import Static

    from kas_tui.tui.commands import COMMANDS
    from kas_tui.tui.screens.help import HelpScreen
    from kas_tui.tui.screens.main_screen import MainScreen

    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen_stack[0], MainScreen)
        view = Screen()
        await app.push_screen(view)
        await view.mount(Static("a full-screen view"))
        for command in COMMANDS:
            if command.action in ("help", "command_palette", "quit"):
                continue
            await pilot.press(command.key)
            await pilot.pause()
            assert app.screen is view, command.action
        await _settle(pilot, app)
        assert app.report is None and not app.query_one("#findings").display
        assert not app.query_one("#files").display and app.location == "SKILL.md"
        assert len(app.history.recent()) <= 1
        await pilot.press("question_mark")
        await pilot_wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))


def test_screens_reach_the_app_typed(demo: Package) -> None:
    """The screens that read the package or run edits reach the app as a Workbench
    (``self.kas``), which the app is; none casts ``self.app`` to ``Any``."""
    import inspect

    from kas_tui.tui.screens.bulk import BulkScreen
    from kas_tui.tui.screens.entry_editor import EntryEditor
    from kas_tui.tui.screens.import_wizard import ImportWizard
    from kas_tui.tui.screens.kas_screen import KasModalScreen, KasScreen, Workbench
    from kas_tui.tui.screens.meta_editor import MetaEditor
    from kas_tui.tui.screens.skill_editor import SkillEditor

    assert isinstance(KasApp(demo, today=TODAY, watch=False), Workbench)
    for screen in (BulkScreen, ImportWizard, MetaEditor, EntryEditor, SkillEditor):
        assert issubclass(screen, (KasScreen, KasModalScreen)), screen.__name__
        source = inspect.getsource(inspect.getmodule(screen))
        assert "app: Any = self.app" not in source, screen.__name__
        assert "self.app.package" not in source, screen.__name__


async def test_the_frontmatter_pane_takes_the_focus_and_scrolls_at_120x40(demo: Package) -> None:
    """Issue 16.9: a frontmatter longer than its pane is reachable: Tab, then the arrows."""
    doc = max(demo.documents, key=lambda p: len(demo.read_text(p).split("\n---", 1)[0]))
    app = KasApp(demo, today=TODAY, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.go(doc, reveal=True)
        await pilot.pause()
        meta = app.query_one("#meta")  # the frame that scrolls the MetaPane
        await pilot_wait_until(pilot, lambda: meta.max_scroll_y > 0)  # cut at this size
        app.query_one(NavTree).focus()
        await pilot.press("tab")
        assert app.focused is meta
        await pilot.press("end")
        await pilot_wait_until(pilot, lambda: meta.scroll_y == meta.max_scroll_y)
        await pilot.press("home")
        await pilot_wait_until(pilot, lambda: meta.scroll_y == 0)
        await pilot.press("down")
        await pilot_wait_until(pilot, lambda: meta.scroll_y == 1)
