"""The import wizard's screen: its state, layout and steps (see the package docstring)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.suggester import SuggestFromList
from textual.widgets import (
    Button,
    ContentSwitcher,
    Header,
    Label,
    ProgressBar,
    Select,
    Static,
)

from kas_tui.core import form_fields as F
from kas_tui.features.importing.files import formats
from kas_tui.tui.screens.import_wizard.converting import ConvertingStep
from kas_tui.tui.screens.import_wizard.files import FilePicker, FilesStep, SelectedList
from kas_tui.tui.screens.import_wizard.labels import home_short
from kas_tui.tui.screens.import_wizard.preview import PlanList, PreviewStep
from kas_tui.tui.widgets.footer import KasFooter
from kas_tui.tui.widgets.inputs import CleanInput
from kas_tui.tui.widgets.page_markdown import PageMarkdown

#: Narrower than this, the wizard drops its body preview and list of formats.
NARROW_BELOW = 100

if TYPE_CHECKING:
    import datetime as dt

    from textual.app import App

    from kas_tui.core.package import Package
    from kas_tui.features.importing import Limits, PlannedImport
    from kas_tui.features.importing.convert import Result


class ImportWizard(FilesStep, ConvertingStep, PreviewStep):
    """Pick files, convert them, review the drafts, write them (see the module docstring)."""

    CSS_PATH = ["../form.tcss", "screen.tcss"]
    BINDINGS = [
        Binding("ctrl+s", "convert", "Convert"),
        Binding("ctrl+s", "write", "Import"),
        Binding("escape", "close", "Close"),
        Binding("escape", "stop", "Stop"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(
        self,
        package: Package,
        *,
        start: Path,
        bundle: str = "",
        today: dt.date | None = None,
        limits: Limits | None = None,
    ) -> None:
        super().__init__()
        self.package = package
        self.start = start
        self.bundle = bundle
        self.today = today
        self.limits = limits
        self.step = "files"
        self.marked: dict[Path, None] = {}
        self.plans: list[PlannedImport] = []
        self.skipped: set[int] = set()
        self.originals: dict[int, PlannedImport] = {}  # duplicates turned into updates
        self.results: dict[int, Result] = {}
        self.conversions: dict[tuple, Result] = {}  # kept across Back: a file converts once
        self.files: list[Path] = []
        self.target = ""  # the bundle the plans go into
        self._base: dict[str, Any] = {}  # index path -> fingerprint when the wizard opened
        self._first: str | None = None  # the first document the write makes, shown after
        self.error = ""  # why the last write was refused, until the next change
        self._stop = threading.Event()
        self._shown: int | None = None
        self._body_of: int | None = None
        self._sync_pending: set[int] = set()
        docs = package.documents.values()
        self.types = F.by_use(d.type for d in docs)
        self.tags = F.by_use(t for d in docs for t in d.tags)

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with ContentSwitcher(initial="iw-files", id="iw-steps"):
            with Horizontal(id="iw-files"):
                yield FilePicker(self.start, self.marked, id="iw-picker")
                with Vertical(id="iw-side"):
                    yield SelectedList(id="iw-selected")
                    with Vertical(classes="iw-field"):
                        yield Label("Paths (comma or line separated; enter adds them)")
                        yield CleanInput(
                            placeholder="report.pdf, ~/Downloads/*.docx, notes/",
                            id="iw-paths",
                        )
                        yield Static(id="iw-paths-error", classes="iw-error")
                    with Horizontal(id="iw-target-row"):
                        with Vertical(classes="iw-field", id="iw-bundle-field"):
                            yield Label("Into bundle")
                            yield Select(
                                self._bundle_options(),
                                value=self.bundle,
                                allow_blank=False,
                                id="iw-bundle",
                            )
                            yield CleanInput(
                                placeholder="or new: billing/disputes",
                                id="iw-new-bundle",
                            )
                        with Vertical(classes="iw-field"):
                            yield Label("Type, if any")
                            yield CleanInput(
                                placeholder="inferred for each file",
                                suggester=SuggestFromList(self.types, case_sensitive=False),
                                id="iw-type",
                            )
                    yield Static(Text(f"Converts {formats()}.", "dim"), id="iw-formats")
                    with Horizontal(id="iw-go"):
                        yield Static(id="iw-files-status")
                        yield Button("Convert  ^s", variant="primary", id="iw-convert")
            with Vertical(id="iw-converting"):
                yield Static(id="iw-conv-title")
                yield ProgressBar(id="iw-progress", show_eta=False)
                with VerticalScroll(id="iw-conv-scroll"):
                    yield Static(id="iw-conv-lines")
                yield Static(
                    Text("escape stops the conversion; nothing has been written", "dim"),
                    id="iw-conv-hint",
                )
            with Vertical(id="iw-preview"):
                with Horizontal(id="iw-review"):
                    yield PlanList(id="iw-plans")
                    with Vertical(id="iw-detail"):
                        yield Static(id="iw-where")
                        with Horizontal(id="iw-panes"):
                            with ContentSwitcher(id="iw-forms"):
                                yield VerticalScroll(Static(id="iw-no-form-text"), id="iw-no-form")
                            with VerticalScroll(id="iw-body-scroll"):
                                yield PageMarkdown(id="iw-body", open_links=False)
                with Horizontal(id="iw-actions"):
                    yield Static(id="iw-summary")
                    yield Button("Import  ^s", variant="primary", id="iw-write", compact=True)
                    yield Button("Cancel", id="iw-cancel", compact=True)
        yield KasFooter()

    def _bundle_options(self) -> list[tuple[Text, str]]:
        pkg = self.package
        titles: dict[str, str] = {}
        for folder in pkg.indexes:
            for item in pkg.listings(folder):
                if item.kind == "bundle":
                    titles.setdefault(item.path, item.entry.title)
        options = [(Text.assemble(("(root)  ", "bold"), (pkg.name, "dim")), "")]
        for folder in sorted(b for b in pkg.bundles() if b):
            label = Text(f"{folder}/")
            if titles.get(folder):
                label.append(f"  {titles[folder]}", "dim")
            options.append((label, folder))
        if self.bundle not in {value for _, value in options}:
            self.bundle = ""
        return options

    def on_resize(self, event: events.Resize) -> None:
        # below 100 columns the body preview and the list of formats give way, so the
        # fields and the Convert button keep their room (issue: clipped at 80x24)
        self.set_class(event.size.width < NARROW_BELOW, "-narrow")

    def on_mount(self) -> None:
        self.title = "Import files"
        self.sub_title = self.package.name
        # the indexes as the wizard found them: the import's entries are planned on these,
        # so one changed on disk before the write is a conflict (never written over)
        self._base = {
            rel: found
            for rel in self.package.index_paths()
            if (found := self.package.fingerprint(rel)) is not None
        }
        picker = self.query_one(FilePicker)
        picker.border_title = Text(f"Files in {home_short(self.start)}")
        picker.border_subtitle = "space marks · enter opens a folder"
        self.query_one("#iw-selected").border_title = "Selected"
        self.query_one("#iw-paths-error").display = False
        self.query_one("#iw-plans").border_title = "Files"
        self.query_one("#iw-where").border_title = "Where it goes"
        self.query_one("#iw-forms").border_title = "Frontmatter (drafted)"
        self.query_one("#iw-body-scroll").border_title = "Body"
        self._refresh_selected()
        picker.focus()

    @property
    def dirty(self) -> bool:
        """Whether leaving would drop drafts (the app asks before quitting)."""
        return self.step == "preview" and bool(self._to_write())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        steps = {
            "convert": "files",
            "close": "files",
            "stop": "converting",
            "write": "preview",
            "cancel": "preview",
            "toggle_skip": "preview",
            "update_instead": "preview",
            "diff": "preview",
            "unselect": "files",
        }
        step = steps.get(action)
        return step is None or step == self.step

    def _go(self, step: str) -> None:
        self.step = step
        self.query_one("#iw-steps", ContentSwitcher).current = f"iw-{step}"
        self.refresh_bindings()


def _bundle_shown(app: Any) -> str:
    """The bundle of the page the app shows ('' for the root or SKILL.md)."""
    location = getattr(app, "location", None) or ""
    if location in app.package.documents or location.endswith("index.md"):
        return os.path.dirname(location)
    return ""


def open_import_wizard(
    app: App, *, start: Path | None = None, limits: Limits | None = None
) -> None:
    """Open the import wizard over ``app``, its file picker rooted at ``start`` (cwd)."""
    if any(isinstance(screen, ImportWizard) for screen in app.screen_stack):
        return
    kas: Any = app
    wizard = ImportWizard(
        kas.package,
        start=Path(os.path.abspath(start or Path.cwd())),
        bundle=_bundle_shown(kas),
        today=kas.today,
        limits=limits,
    )
    app.push_screen(wizard)
