"""Pilot tests of the import wizard on a copy of demo_kb, with real files made here."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest
import yaml
from textual.widgets import Markdown, Select, Static

from kas_tui.core import form_fields as F
from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.importing import Converted, draft_document, plan_import, write_import
from kas_tui.features.importing import importer as importer_module
from kas_tui.features.importing.files import parse_paths
from kas_tui.tui.app import KasApp
from kas_tui.tui.screens.choose import ChoiceScreen, DiffScreen
from kas_tui.tui.screens.import_wizard import (
    FilePicker,
    ImportWizard,
    PlanList,
)
from kas_tui.tui.widgets.inputs import CleanInput
from tests.helpers.acme import changed, files
from tests.helpers.import_wizard import (
    conversion_done,
    convert,
    open_wizard,
    plan_number,
    prompt,
    set_field,
    show,
    summary,
    where,
)
from tests.helpers.office import TXT
from tests.helpers.waiting import pilot_wait_until

TODAY = dt.date(2026, 11, 30)
BUNDLE = "billing-support"
SIZE = (120, 36)  # smaller screens render faster; the wizard works at this size


def frontmatter(path: Path) -> dict:
    return yaml.safe_load(path.read_text().split("---\n")[1])


# --- the whole way: pick, convert, review, edit, write, undo -------------------------------


async def test_import_files_end_to_end_and_undo(
    root: Path, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(inbox)  # the picker is rooted where kas-tui was started
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        app.go(f"{BUNDLE}/billing-faq.md")
        await pilot.press("i")
        await pilot.pause()
        wizard = app.screen
        assert isinstance(wizard, ImportWizard)
        assert wizard.start == inbox
        assert wizard.query_one("#iw-bundle", Select).value == BUNDLE  # the bundle shown

        # four files picked programmatically, one typed into the paths input
        wizard.select(inbox / n for n in ("refund-faq.html", "plans.csv", "dunning.docx"))
        wizard.select([inbox / "broken.pdf"])
        wizard.query_one("#iw-paths").focus()
        await pilot.press(*"chargebacks.txt", "enter")
        await pilot.pause()
        assert [p.name for p in wizard.marked] == [
            "refund-faq.html",
            "plans.csv",
            "dunning.docx",
            "broken.pdf",
            "chargebacks.txt",
        ]
        await convert(app, pilot, wizard)

        actions = {p.source.name: p.action for p in wizard.plans}
        assert actions == {
            "refund-faq.html": "create",
            "plans.csv": "create",
            "dunning.docx": "create",
            "broken.pdf": "failed",
            "chargebacks.txt": "create",
        }
        # the failed file says why in the list and on the right, and blocks nothing
        failed = plan_number(wizard, "broken.pdf")
        assert "corrupt" in prompt(wizard, failed)
        await show(pilot, wizard, "broken.pdf")
        assert "corrupt" in str(wizard.query_one("#iw-no-form-text", Static).render())
        assert "4 new · 1 failed" in summary(wizard)

        # the drafted frontmatter in the editor's form, the index entry, the body
        html = await show(pilot, wizard, "refund-faq.html")
        form = wizard._form(html)
        assert form is not None
        assert form.row("title").text() == "Refund FAQ for enterprise customers"
        assert form.row("type").text()
        assert form.row("description").text().startswith("Enterprise customers can request")
        assert form.row("status").text() == "draft"
        shown = where(wizard)
        assert "billing-support/refund-faq.md" in shown
        assert "+ billing-support/index.md" in shown
        assert "* [Refund FAQ for enterprise customers](refund-faq.md) - Enterprise" in shown
        body = wizard.query_one("#iw-body", Markdown).source
        assert "How to ask" in body and "type:" not in body

        # an edit changes the draft, its list line and its index entry
        await set_field(pilot, wizard, html, "title", "Enterprise refunds FAQ")
        await set_field(pilot, wizard, html, "tags", "refunds, enterprise")
        draft = wizard.plans[html].draft
        assert draft.title == "Enterprise refunds FAQ"
        assert draft.frontmatter["tags"] == ["refunds", "enterprise"]
        assert "Enterprise refunds FAQ" in prompt(wizard, html)
        assert "* [Enterprise refunds FAQ](refund-faq.md)" in where(wizard)

        # an invalid value is marked, is not carried into the draft, and blocks the write
        await set_field(pilot, wizard, html, "type", "")
        assert form.row("type").parse()[1]
        assert draft.type  # the draft keeps the last valid type
        assert "! Enterprise refunds FAQ" in prompt(wizard, html)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is wizard
        assert "type is required" in summary(wizard)
        assert "type is required" in (form.row("type").error or "")  # shown at the field
        assert files(root) == before
        await set_field(pilot, wizard, html, "type", "FAQ")

        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, ImportWizard)

        after = files(root)
        assert changed(before, after) == {
            f"{BUNDLE}/refund-faq.md",
            f"{BUNDLE}/plans.md",
            f"{BUNDLE}/dunning.md",
            f"{BUNDLE}/chargebacks.md",
            f"{BUNDLE}/index.md",
            "log.md",
        }
        meta = frontmatter(root / BUNDLE / "refund-faq.md")
        assert meta["title"] == "Enterprise refunds FAQ"
        assert meta["type"] == "FAQ"
        assert meta["tags"] == ["refunds", "enterprise"]
        assert meta["status"] == "draft"
        assert meta["sources"][0]["sha256"]
        assert list(meta)[:3] == ["type", "title", "description"]
        dunning = (root / BUNDLE / "dunning.md").read_text()
        assert "retried on days 1, 3 and 7" in dunning
        index = (root / BUNDLE / "index.md").read_text()
        assert "[Enterprise refunds FAQ](refund-faq.md) - Enterprise customers" in index
        assert "(chargebacks.md)" in index and "(plans.md)" in index
        log = (root / "log.md").read_text()
        assert "Imported [Enterprise refunds FAQ](/billing-support/refund-faq.md)" in log
        assert log.count("from refund-faq.html") == 1 and "broken.pdf" not in log
        assert app.location in {f"{BUNDLE}/refund-faq.md", f"{BUNDLE}/plans.md"}
        assert f"{BUNDLE}/dunning.md" in app.package.documents

        app.action_undo()  # one ctrl+z: everything the import wrote
        await pilot.pause()
        assert files(root) == before
        assert f"{BUNDLE}/dunning.md" not in app.package.documents


async def test_the_file_name_can_be_chosen_but_not_taken(root: Path, inbox: Path) -> None:
    from kas_tui.tui.screens.import_wizard import FILE_KEY

    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        wizard.query_one("#iw-bundle", Select).value = BUNDLE
        wizard.select([inbox / "chargebacks.txt", inbox / "plans.csv"])
        await convert(app, pilot, wizard)
        number = await show(pilot, wizard, "chargebacks.txt")
        form = wizard._form(number)
        draft = wizard.plans[number].draft
        assert form.row(FILE_KEY).text() == "chargebacks"
        # taken on disk, taken by the other file of this import, not a slug: refused
        for name, problem in [
            ("billing-faq", f"billing-faq is taken in {BUNDLE}/"),
            ("plans", "another document of this import is named plans.md"),
            ("Card Disputes", "as in card-disputes"),
            ("index", "one of the package's own files"),
        ]:
            await set_field(pilot, wizard, number, FILE_KEY, name)
            row = form.row(FILE_KEY)
            assert problem in (row.error or row.parse()[1] or ""), name
            assert draft.slug == "chargebacks"
        await set_field(pilot, wizard, number, FILE_KEY, "card-disputes.md")
        assert draft.slug == "card-disputes" and not form.row(FILE_KEY).error
        assert f"{BUNDLE}/card-disputes.md" in where(wizard)
        assert "→ card-disputes.md" in prompt(wizard, number)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, ImportWizard)
        assert (root / BUNDLE / "card-disputes.md").is_file()
        assert not (root / BUNDLE / "chargebacks.md").exists()
        assert "(card-disputes.md)" in (root / BUNDLE / "index.md").read_text()


async def test_a_new_bundle_can_be_typed(root: Path, inbox: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        wizard.select([inbox / "chargebacks.txt"])
        new = wizard.query_one("#iw-new-bundle", CleanInput)
        new.value = "Billing Support/Disputes"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert wizard.step == "files"  # refused, with the reason
        status = str(wizard.query_one("#iw-files-status", Static).render())
        assert "New bundle: 'Billing Support' is not a folder name; as in billing-support" in status
        new.value = f"{BUNDLE}/disputes"
        await pilot.pause()
        status = str(wizard.query_one("#iw-files-status", Static).render())
        assert f"1 file into {BUNDLE}/disputes/" in status
        await convert(app, pilot, wizard)
        assert f"{BUNDLE}/disputes/chargebacks.md" in where(wizard)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, ImportWizard)
        assert (root / BUNDLE / "disputes" / "chargebacks.md").is_file()
        assert "(chargebacks.md)" in (root / BUNDLE / "disputes" / "index.md").read_text()
        assert "(disputes/" in (root / BUNDLE / "index.md").read_text()  # listed by its parent


async def test_a_new_bundle_is_listed_in_a_fitting_section_previewed_right_and_undone(
    root: Path, inbox: Path
) -> None:
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        wizard.select([inbox / "chargebacks.txt", inbox / "plans.csv"])
        wizard.query_one("#iw-new-bundle", CleanInput).value = f"{BUNDLE}/disputes"
        await pilot.pause()
        await convert(app, pilot, wizard)
        await show(pilot, wizard, "chargebacks.txt")
        shown = [line for line in where(wizard).splitlines() if f"+ {BUNDLE}/index.md" in line]
        assert len(shown) == 1, where(wizard)
        previewed = shown[0].split(f"+ {BUNDLE}/index.md", 1)[1].strip()
        assert "[Disputes](disputes/) - 2 " in previewed  # both files, not the one shown
        assert not (root / BUNDLE / "disputes").exists()
        assert f"{BUNDLE}/disputes" not in app.package.folders, "a preview changes nothing"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, ImportWizard)
        parent = (root / BUNDLE / "index.md").read_text()
        assert previewed + "\n" in parent, "the preview showed what was written"
        # beside the other sub-bundle (refunds/, under "# Money back"), not after the last
        # section's entries whatever they are
        entries = {e.target: e for e in parse_index(parent).entries}
        assert entries["disputes/"].section == entries["refunds/"].section == "Money back"

        app.action_undo()  # one ctrl+z: the documents, the indexes, the log, the folder
        await pilot.pause()
        assert files(root) == before
        assert not (root / BUNDLE / "disputes").exists()
        assert f"{BUNDLE}/disputes" not in app.package.folders
        app.action_redo()
        await pilot.pause()
        assert (root / BUNDLE / "disputes" / "chargebacks.md").is_file()
        assert f"{BUNDLE}/disputes" in app.package.bundles()


async def test_help_in_the_wizard_lists_the_keys_of_the_step_shown(root: Path, inbox: Path) -> None:
    from rich.console import Console

    from kas_tui.tui.screens.help import HelpScreen

    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(app, pilot, inbox)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        console = Console(record=True, width=120)
        console.print(app.screen.query_one(Static).content)
        text = console.export_text()
        assert "Mark" in text and "Convert" in text and "Close" in text
        assert "Cancel" not in text and "Stop" not in text  # keys of the other steps


# --- leaving without a trace ------------------------------------------------------------------


async def test_cancel_at_preview_writes_nothing(root: Path, inbox: Path) -> None:
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        assert wizard.query_one("#iw-bundle", Select).value == ""  # SKILL.md shown: the root
        wizard.select([inbox / "chargebacks.txt"])
        await convert(app, pilot, wizard)
        assert wizard.dirty  # quitting the app asks first
        await set_field(pilot, wizard, 0, "title", "Card disputes")

        # escape asks; "back to the files" keeps the selection
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("b")  # back to the files
        await pilot.pause()
        assert app.screen is wizard and wizard.step == "files"
        assert list(wizard.marked) == [inbox / "chargebacks.txt"]
        assert not wizard.dirty
        (kept,) = wizard.conversions.values()
        await convert(app, pilot, wizard)  # forward again: the file is not converted twice
        assert wizard.results[0] is kept
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()

        await pilot.press("escape")  # and from there escape closes the wizard
        await pilot.pause()
        assert not isinstance(app.screen, (ImportWizard, ChoiceScreen))
        assert files(root) == before
        assert not app.session.can_undo


async def test_escape_stops_a_conversion(
    root: Path, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Escape while converting sets should_stop; the wizard goes back to the files."""
    asked = threading.Event()

    def slow_plan(pkg, paths, bundle="", *, on_result=None, should_stop=None, **_kw):
        on_result(0, importer_module.ConversionError(paths[0], "corrupt", "x: corrupt"))
        while not should_stop():
            asked.wait(0.01)
        asked.set()
        return []

    monkeypatch.setattr(importer_module, "plan_import", slow_plan)
    before = files(root)
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        wizard.select([inbox / "chargebacks.txt", inbox / "plans.csv"])
        await pilot.press("ctrl+s")
        lines = wizard.query_one("#iw-conv-lines", Static)
        await pilot_wait_until(pilot, lambda: "x: corrupt" in str(lines.render()))
        assert wizard.step == "converting"
        assert wizard.query_one("#iw-progress").border_title == "1 of 2"
        await pilot.press("escape")
        await conversion_done(app)
        await pilot.pause()
        assert asked.is_set()
        assert wizard.step == "files"
        assert "stopped" in str(wizard.query_one("#iw-files-status", Static).render())
        assert len(wizard.marked) == 2
        assert files(root) == before


# --- refusals, duplicates --------------------------------------------------------------------


async def test_a_refused_write_keeps_the_wizard_and_the_edits(root: Path, inbox: Path) -> None:
    """A file changed on disk refuses the write: shown, nothing written, edits kept.

    Also: space leaves a file out, and a Markdown source keeps its own YAML as written.
    """
    (inbox / "notes.md").write_text(
        "---\ntitle: Refund notes\nowner: billing  # who answers\n---\n"
        "Refunds over 500 EUR need a second approver from finance.\n"
    )
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        app.go(f"{BUNDLE}/index.md")
        wizard = await open_wizard(app, pilot, inbox)
        assert wizard.query_one("#iw-bundle", Select).value == BUNDLE
        wizard.select([inbox / "chargebacks.txt", inbox / "notes.md"])
        await convert(app, pilot, wizard)
        notes = await show(pilot, wizard, "notes.md")
        await set_field(pilot, wizard, notes, "title", "Refund approval notes")

        wizard.query_one(PlanList).focus()
        await show(pilot, wizard, "chargebacks.txt")
        await pilot.press("space")
        await pilot.pause()
        assert "(left out)" in prompt(wizard, plan_number(wizard, "chargebacks.txt"))
        assert "1 left out" in summary(wizard)

        index = root / BUNDLE / "index.md"  # another program edits the index meanwhile
        index.write_text(index.read_text() + "\n<!-- edited elsewhere -->\n")
        before = files(root)
        for _ in range(2):  # asked each time: the index differs from what the wizard planned on
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, ChoiceScreen) and "changed on disk" in str(
                app.screen.query_one("#choice-message", Static).render()
            )
            assert files(root) == before  # the document written first was taken back
            await pilot.press("k")  # keep editing
            await pilot.pause()
            assert app.screen is wizard and wizard.step == "preview"
            assert wizard._form(notes).row("title").text() == "Refund approval notes"

        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("d")  # the diff of importing on top of the new index
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        await pilot.press("s")
        await pilot.pause()
        assert not isinstance(app.screen, ImportWizard)
        assert "<!-- edited elsewhere -->" in index.read_text()
        assert changed(before, files(root)) == {
            f"{BUNDLE}/notes.md",
            f"{BUNDLE}/index.md",
            "log.md",
        }
        text = index.read_text()
        assert "[Refund approval notes](notes.md)" in text and "edited elsewhere" in text
        doc = (root / BUNDLE / "notes.md").read_text()
        assert "owner: billing  # who answers" in doc  # the source's own YAML, as written
        assert frontmatter(root / BUNDLE / "notes.md")["title"] == "Refund approval notes"


async def test_reimport_offers_an_update_instead_of_a_duplicate(root: Path, inbox: Path) -> None:
    source = inbox / "chargebacks.txt"
    package = Package.open(root)
    plans = plan_import(package, [source], "")
    plans[0].draft.frontmatter["title"] = "Card disputes"  # as a curator would
    write_import(package, plans, today=TODAY)
    doc = root / "chargebacks.md"
    assert frontmatter(doc)["title"] == "Card disputes"
    source.write_text(TXT + "\nEscalate disputes over 5,000 EUR to finance.\n")

    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        wizard.select([source])
        await convert(app, pilot, wizard)
        assert wizard.plans[0].action == "duplicate"
        assert "already in the package as chargebacks.md" in prompt(wizard, 0)
        assert "nothing to write" in summary(wizard)
        wizard.query_one(PlanList).focus()
        await pilot.press("u")
        await pilot.pause()
        assert wizard.plans[0].action == "update"
        assert "updates chargebacks.md" in prompt(wizard, 0)
        await pilot.press("u")  # and back
        await pilot.pause()
        assert wizard.plans[0].action == "duplicate"
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, ImportWizard)
        text = doc.read_text()
        assert "Escalate disputes over 5,000 EUR" in text
        assert frontmatter(doc)["title"] == "Card disputes"  # the curator's title stays


# --- the picker ------------------------------------------------------------------------------


async def test_picker_marks_files_with_space(root: Path, inbox: Path) -> None:
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        picker = wizard.query_one(FilePicker)
        await pilot_wait_until(pilot, lambda: picker.root.children)
        names = [node.data.path.name for node in picker.root.children]
        assert names == sorted(names)
        picker.focus()
        picker.move_cursor(picker.root.children[names.index("plans.csv")])
        await pilot.press("space")
        await pilot.pause()
        assert list(wizard.marked) == [inbox / "plans.csv"]
        label = picker.render_label(picker.cursor_node, picker.rich_style, picker.rich_style)
        assert label.plain.startswith("● ")
        await pilot.press("space")
        await pilot.pause()
        assert not wizard.marked
        picker.move_cursor(picker.root)  # the folder: every file kas-tui can convert
        await pilot.press("space")
        await pilot.pause()
        assert {p.name for p in wizard.marked} == {
            "broken.pdf",
            "chargebacks.txt",
            "dunning.docx",
            "plans.csv",
            "refund-faq.html",
        }
        unknown = picker.root.children[names.index("photo.bin")]
        label = picker.render_label(unknown, picker.rich_style, picker.rich_style)
        assert any(str(span.style) == "dim" for span in label.spans)
        await pilot.press("escape")  # closing at the files step asks nothing
        await pilot.pause()
        assert not isinstance(app.screen, ImportWizard)


def test_parse_paths(inbox: Path) -> None:
    (inbox / "sub").mkdir()
    (inbox / "sub" / "a, b.txt").write_text("comma in the name\n")
    found, problems = parse_paths(
        'plans.csv, *.html\n"sub/a, b.txt", missing.pdf, sub, none-*.xyz', inbox
    )
    assert found == [inbox / "plans.csv", inbox / "refund-faq.html", inbox / "sub" / "a, b.txt"]
    assert problems == ["missing.pdf: no such file", "none-*.xyz: matches no file"]


def test_draft_set_field_keeps_a_markdown_source_yaml(tmp_path: Path) -> None:
    text = "title: Old  # keep me\nowner: billing\n"
    converted = Converted(
        tmp_path / "n.md",
        "Body text here.\n",
        "markdown",
        "0" * 64,
        10,
        0.0,
        frontmatter={"title": "Old", "owner": "billing"},
        frontmatter_text=text,
    )
    draft = draft_document(converted, None, "", root=tmp_path)
    assert draft.set_field("title", "New")
    assert not draft.set_field("title", "New")  # already so: nothing to do
    draft.set_field("tags", ["a", "b"])
    draft.set_field("owner", F.REMOVE)
    rendered = draft.render()
    assert "title: New  # keep me" in rendered
    assert "owner" not in rendered
    assert draft.frontmatter["tags"] == ["a", "b"]
    assert rendered.index("type:") < rendered.index("title: New")
    with pytest.raises((ValueError, Exception)):
        draft.set_field("title", {"not": object()})
    assert draft.title == "New"  # a refused value leaves the draft as it was


async def test_at_80x24_tab_reaches_the_paths_and_the_file_name_and_names_are_distinct(
    root: Path, inbox: Path
) -> None:
    for sub in ("a", "b", "c"):
        (inbox / sub).mkdir()
        (inbox / sub / "test.txt").write_text(f"Notes {sub}\n\nWhat folder {sub} holds.\n")
    app = KasApp(Package.open(root), today=TODAY, watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        wizard = await open_wizard(app, pilot, inbox)
        # nothing selected yet: the first Tab goes from the picker to where paths are typed
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is wizard.query_one("#iw-paths", CleanInput)
        await pilot.press(*"a/test.txt, b/test.txt, c/test.txt", "enter")
        await pilot_wait_until(pilot, lambda: len(wizard.marked) == 3)
        listed = wizard.query_one("#iw-selected")
        labels = [str(listed.get_option_at_index(i).prompt) for i in range(3)]
        # three files of one name: each row tells its folder, and both fit in the row
        assert len(set(labels)) == 3
        width = listed.scrollable_content_region.width
        for sub, label in zip("abc", labels, strict=True):
            first_line = label.split("\n")[0]
            assert "test.txt" in first_line and f"{sub}/" in label and len(first_line) <= width
        await convert(app, pilot, wizard)
        # the review: the first Tab from the file list lands on the file-name field
        assert app.focused is wizard.query_one(PlanList)
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "field-file-name", app.focused
