"""Regenerate the README screenshots from the real app on demo_kb: python screenshots/take.py

Needs ``rsvg-convert`` (Debian: librsvg2-bin) to turn Textual's SVG screenshots into PNG.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kas_tui.core.package import Package  # noqa: E402
from kas_tui.tui.app import KasApp  # noqa: E402

SIZE = (160, 44)
LOCATION = "/home/curator/.claude/skills/orbit-handbook/SKILL.md"

Setup = Callable[[object], Awaitable[None]]


async def shoot(name: str, setup: Setup) -> None:
    data = os.environ.get("KAS_TUI_DATA_DIR")  # a setup may point it at its own folder
    try:
        await _shoot(name, setup)
    finally:
        if data is None:
            os.environ.pop("KAS_TUI_DATA_DIR", None)
        else:
            os.environ["KAS_TUI_DATA_DIR"] = data


async def _shoot(name: str, setup: Setup) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(HERE.parent / "demo_kb", Path(tmp) / "demo_kb")
        prepare = getattr(setup, "prepare", None)
        if prepare is not None:
            prepare(Path(tmp) / "demo_kb" / "orbit-handbook")
        package = Package.open(Path(tmp) / "demo_kb")
        app = KasApp(package, today=dt.date(2026, 11, 30), watch=False)
        app.catalog_location = LOCATION  # every view counts the same installed entry
        async with app.run_test(size=getattr(setup, "size", SIZE)) as pilot:
            await setup(pilot)
            await pilot.pause(0.5)
            svg = app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    png = HERE / f"{name}.png"
    Path(svg).write_text(keep_spaces(Path(svg).read_text("utf-8")), "utf-8")
    subprocess.run(["rsvg-convert", svg, "-o", str(png)], check=True)
    Path(svg).unlink()
    print(png)


_TEXT = re.compile(
    r'(<text [^>]*?x=")([\d.]+)("[^>]*?textLength=")([\d.]+)("[^>]*>)([^<]*)(</text>)'
)
_SPACE = "&#160;"


def keep_spaces(svg: str) -> str:
    """Move a run's leading and trailing spaces into its position and length.

    Textual writes each styled run as one ``<text>`` with its cell-exact ``x`` and
    ``textLength``; rsvg-convert drops the spaces at either end of a run and stretches
    what is left over the whole length, so ``"   tools: "`` renders as ``"tools:"`` glued
    to the run before it. Without those spaces (the cells they took moved into ``x`` and
    ``textLength``) every run sits where the terminal shows it.
    """

    def fix(match: re.Match[str]) -> str:
        start, x, middle, length, head, text, end = match.groups()
        cells = len(re.sub(r"&#?\w+;", "_", text))
        lead = 0
        while text[lead * len(_SPACE) :].startswith(_SPACE):
            lead += 1
        trail = 0
        while text[: len(text) - trail * len(_SPACE)].endswith(_SPACE) and lead + trail < cells:
            trail += 1
        if not (lead or trail) or lead + trail >= cells:
            return match.group(0)
        cell = float(length) / cells
        stripped = text[lead * len(_SPACE) : len(text) - trail * len(_SPACE)]
        new_x = float(x) + lead * cell
        new_length = float(length) - (lead + trail) * cell
        return f"{start}{new_x:g}{middle}{new_length:g}{head}{stripped}{end}"

    return _TEXT.sub(fix, svg)


async def curator(pilot) -> None:
    """The curator view on the discovery layer."""


async def document(pilot) -> None:
    """A document: frontmatter typed and readable, the body rendered."""
    await pilot.press("down", "down", "enter", "down", "down")


async def validation(pilot) -> None:
    """The validation panel after v, with a file that needs attention."""
    from kas_tui.tui.widgets.findings import FindingsPanel

    app = pilot.app
    await pilot.press("down", "down", "down", "down", "down", "enter", "down")
    await pilot.press("v")
    await app.workers.wait_for_complete()
    await pilot.pause()
    report = dataclasses.replace(app.report, seconds=0.31)
    app.query_one(FindingsPanel).show_report(report)


def _untidy(root: Path) -> None:
    """What a week of edits leaves behind: a page nobody listed, with a dead link."""
    (root / "oncall" / "pager-etiquette.md").write_text(
        "---\ntype: Guide\ntitle: Pager etiquette\n---\n"
        "Acknowledge within five minutes; see [the old rota](rota-2025.md).\n"
    )


validation.prepare = _untidy  # type: ignore[attr-defined]


async def agent_walk(pilot) -> None:
    """The agent walk: catalog, SKILL.md, the root index, then a bundle's index."""
    from kas_tui.tui.screens.agent import AgentWalkScreen

    app = pilot.app
    await app.push_screen(AgentWalkScreen(app.package, location=app.catalog_location))
    await pilot.press("enter", "enter", "down", "down", "down", "down", "enter")


async def edit_form(pilot) -> None:
    """The frontmatter form on a document, a tag being added."""
    from kas_tui.tui.screens.meta_editor import open_meta_editor

    app = pilot.app
    app.go("billing-support/refunds/refund-policy.md", reveal=True)
    await pilot.pause()
    open_meta_editor(app, "billing-support/refunds/refund-policy.md")
    await pilot.pause(0.5)


async def import_wizard(pilot) -> None:
    """The import wizard's preview: five files converted into a bundle, one reviewed."""
    from kas_tui.tui.screens.import_wizard import PlanList, open_import_wizard

    app = pilot.app
    inbox = app.package.root.parent.parent / "inbox"
    app.go("billing-support/billing-faq.md")
    open_import_wizard(app, start=inbox)
    await pilot.pause()
    wizard = app.screen
    wizard.select(sorted(p for p in inbox.iterdir() if p.is_file()))
    await pilot.press("ctrl+s")
    for worker in list(app.workers):
        if worker.group == "import":
            await worker.wait()
    await pilot.pause()
    shown = "test_blog.html" if SAMPLES.is_dir() else "refund-faq.html"
    number = next(n for n, p in enumerate(wizard.plans) if p.source.name == shown)
    wizard.query_one(PlanList).highlighted = number
    await pilot.pause()
    wizard.query_one(PlanList).focus()


async def fulltext(pilot) -> None:
    """Full-text search (ctrl+f): documents ranked, each with its matching line."""
    app = pilot.app
    app.go("billing-support/billing-faq.md", reveal=True)
    await pilot.press("ctrl+f", *"refund approv")
    while not (app.screen.found and app.fulltext.progress[0] == app.fulltext.progress[1]):
        await pilot.pause(0.05)
    app.screen._run(app.screen.query_one("Input").value)  # the whole index's results


INBOX = {
    "refund-faq.html": (
        "<html><head><title>Refunds for enterprise customers</title></head><body>"
        "<h1>Refunds for enterprise customers</h1>"
        "<p>Enterprise customers can ask for a prorated refund within 30 days of a renewal "
        "when Orbit missed its service level.</p><h2>How to ask</h2>"
        "<p>Open a ticket with the billing team and attach the invoice number. Billing "
        "answers within two business days.</p><h2>What is refunded</h2><ul>"
        "<li>The unused part of the current term, per seat</li>"
        "<li>Service credits already granted are deducted</li></ul></body></html>"
    ),
    "chargebacks.txt": (
        "Chargebacks\n\nA chargeback happens when a customer disputes a card payment with "
        "their bank. Respond within seven days with the invoice and the usage logs.\n"
    ),
    "plan-limits.csv": "plan,seats,projects\nFree,5,3\nTeam,25,50\nBusiness,250,500\n",
    "dunning.docx": None,  # made by _inbox
    "scan-2019.pdf": None,
}


#: MarkItDown's own test files (a blog page, Word, PDF, slides, a workbook), shared
#: beside the checkout: the screenshot imports them when they are there.
SAMPLES = HERE.parent.parent / "shared" / "fixtures" / "markitdown-samples"
SAMPLE_FILES = ("test_blog.html", "test.docx", "test.pdf", "test.pptx", "test.xlsx")


def _inbox(root: Path) -> None:
    """Files to import, beside the package: the shared samples when present, else a
    page, a note, a table, a Word file and a bad PDF made here."""
    import zipfile

    inbox = root.parent.parent / "inbox"
    inbox.mkdir()
    if SAMPLES.is_dir():
        for name in SAMPLE_FILES:
            shutil.copyfile(SAMPLES / name, inbox / name)
        return
    for name, text in INBOX.items():
        if text is not None:
            (inbox / name).write_text(text)
    (inbox / "scan-2019.pdf").write_bytes(b"%PDF-1.4\n(a scan, damaged in transit)\n")
    word = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    paragraphs = "".join(
        f'<w:p><w:r><w:t xml:space="preserve">{t}</w:t></w:r></w:p>'
        for t in (
            "Dunning schedule",
            "Failed card payments are retried on days 1, 3 and 7 before the workspace is "
            "suspended.",
        )
    )
    with zipfile.ZipFile(inbox / "dunning.docx", "w") as docx:
        docx.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.'
            'openxmlformats.org/package/2006/content-types"><Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/><Override '
            'PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.wordprocessingml.document.main+xml"/></Types>',
        )
        docx.writestr(
            "_rels/.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'officeDocument" Target="word/document.xml"/></Relationships>',
        )
        docx.writestr(
            "word/document.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{word}">'
            f"<w:body>{paragraphs}</w:body></w:document>",
        )


import_wizard.prepare = _inbox  # type: ignore[attr-defined]


async def review(pilot) -> None:
    """The review queue (t): counts on top, each group with its rows, a changed source."""
    from kas_tui.tui.screens.review import ReviewScreen

    app = pilot.app
    await pilot.press("t")
    while not (isinstance(app.screen, ReviewScreen) and app.screen.queue is not None):
        await pilot.pause(0.05)
    await pilot.press("down")  # the changed source: its detail below


def _changed_source(root: Path) -> None:
    """The refund policy records its matrix's SHA-256; then the payments team edits it."""
    import hashlib

    matrix = root / "references" / "refund-matrix.txt"
    policy = root / "billing-support" / "refunds" / "refund-policy.md"
    anchor = "    last_modified: 2026-06-10T00:00:00Z\n"
    digest = hashlib.sha256(matrix.read_bytes()).hexdigest()
    policy.write_text(policy.read_text().replace(anchor, f"{anchor}    sha256: {digest}\n", 1))
    with matrix.open("a") as handle:
        handle.write("Goodwill credit over 500 USD | Finance | from December\n")


review.prepare = _changed_source  # type: ignore[attr-defined]


async def create(pilot) -> None:
    """c in the incidents bundle: a new runbook, where its entry will go shown above."""
    app = pilot.app
    app.go("incidents/severity-levels.md", reveal=True)
    await pilot.pause()
    await pilot.press("c", "d")
    await pilot.pause()
    await pilot.press("down", "tab", *"Rotate the Stripe API key", "tab")
    await pilot.press(*"How to rotate the Stripe API key without downtime, step by step.")
    await pilot.press("tab", "tab", *"stripe, secr")
    await pilot.pause()


async def links(pilot) -> None:
    """l on a document: what it links to, then what cites it, each with its line."""
    from kas_tui.tui.screens.links import LinksScreen
    from kas_tui.tui.widgets.nav_tree import NavTree

    app = pilot.app
    await pilot.pause()
    app.go("incidents/severity-levels.md", reveal=True)
    app.query_one(NavTree).focus()
    await pilot.pause(0.3)
    await pilot.press("l")
    while not (isinstance(app.screen, LinksScreen) and app.screen.cited_by is not None):
        await pilot.pause(0.05)
    options = app.screen.query_one("OptionList")
    options.highlighted = len(app.screen.links) + 2  # the first page citing it
    await pilot.pause()


async def rename(pilot) -> None:
    """r on a document: the new name typed, then the whole diff of what follows it."""
    from kas_tui.tui.screens.choose import ChoiceScreen
    from kas_tui.tui.widgets.nav_tree import NavTree

    app = pilot.app
    await pilot.pause()
    app.go("incidents/severity-levels.md", reveal=True)
    app.query_one(NavTree).focus()
    await pilot.pause(0.3)
    await pilot.press("r")
    await pilot.pause()
    app.screen.query_one("#ask-input").value = "sev-levels.md"
    await pilot.press("enter")
    while not isinstance(app.screen, ChoiceScreen):
        await pilot.pause()
    await pilot.press("d")


async def evaluation(pilot) -> None:
    """g: the last evaluation, sorted by outcome, a detour's blame below."""
    from kas_tui.tui.screens.evaluation import EvalScreen

    app = pilot.app
    await pilot.press("g")
    while not (isinstance(app.screen, EvalScreen) and app.screen.rows):
        await pilot.pause(0.05)
    await pilot.press("o", "home")
    screen = app.screen
    while (row := screen.current_row()) is not None and not row.reached:
        await pilot.press("down")  # past the misses, to the first detour


def _evaluated(root: Path) -> None:
    """The demo's own questions (evals/evals.json, written by people), evaluated into a
    data folder of the shot's own."""
    from kas_tui.core.package import Package
    from kas_tui.features.evaluate.question_files import read_question_set
    from kas_tui.features.evaluate.rerun import rerun_all

    os.environ["KAS_TUI_DATA_DIR"] = str(root.parent.parent / "data")
    evals = root / "evals" / "evals.json"
    questions = read_question_set(evals, Package.open(root)).questions
    rerun_all(root, questions, ablations=("descriptions",), questions_source="evals/evals.json")


evaluation.prepare = _evaluated  # type: ignore[attr-defined]


async def small_document(pilot) -> None:
    """A document at 80x24: the tree gives the page its 34 columns of text."""
    await document(pilot)


async def small_outline(pilot) -> None:
    """The outline (o) at 80x24: it takes the tree's place, the page stays readable."""
    await document(pilot)
    await pilot.press("o")


async def small_validation(pilot) -> None:
    """The findings panel (v) at 80x24, closable with Esc."""
    await validation(pilot)


small_document.size = small_outline.size = small_validation.size = (80, 24)  # type: ignore[attr-defined]
small_validation.prepare = _untidy  # type: ignore[attr-defined]


SHOTS = {
    "main": curator,
    "document": document,
    "validation": validation,
    "agent-walk": agent_walk,
    "edit-form": edit_form,
    "import-wizard": import_wizard,
    "review": review,
    "create": create,
    "fulltext": fulltext,
    "rename": rename,
    "links": links,
    "evaluation": evaluation,
    "small-document": small_document,
    "small-outline": small_outline,
    "small-validation": small_validation,
}

if __name__ == "__main__":
    for shot_name, shot_setup in SHOTS.items():
        if len(sys.argv) == 1 or shot_name in sys.argv[1:]:
            asyncio.run(shoot(shot_name, shot_setup))
