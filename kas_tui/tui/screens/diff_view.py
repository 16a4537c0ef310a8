"""The diff view (``d``): the working package against a git revision, as ``kas-tui diff
PKG --since REV`` reports it (:mod:`kas_tui.features.diff`), one row per change.

On top, the revision (``HEAD`` at first; type another and press enter) and the counts;
then the changes by group (findings first, then documents, index entries, the catalog
entry, links, token costs), the highlighted row's detail below. Enter opens the row's
file in the main view, at its line (the screen closes); a file the change removed is
gone, and says so. The diff is computed in the background from the files on disk: it
needs ``git`` and a package inside a repository, and says in one line when it has
neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from kas_tui.features.check.run import CheckOptions
from kas_tui.features.diff.compare import Diff, diff_since
from kas_tui.features.diff.render import counts_line
from kas_tui.features.diff.revision import RevisionError
from kas_tui.features.diff.rows import GROUPS, Row, diff_rows
from kas_tui.tui.screens.kas_screen import KasScreen
from kas_tui.tui.widgets.footer import KasFooter

if TYPE_CHECKING:
    from textual.app import App

#: A group heading's option id starts with this.
HEADING = "group:"
_MARK_STYLE = {"!": "red", "+": "green", "-": "red", "→": "cyan", "✓": "cyan", "~": "yellow"}


class DiffScreen(KasScreen[tuple[str, int | None] | None]):
    """The diff view (see the module docstring); dismisses with a place to show."""

    CSS_PATH = "diff_view.tcss"
    AUTO_FOCUS = "#diff-list"

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close"),
        Binding("enter", "open", "Open", key_display="⏎", show=False),
        Binding("r", "focus_revision", "Revision"),
    ]

    def __init__(self, revision: str = "HEAD") -> None:
        super().__init__()
        self.revision = revision
        self.diff: Diff | None = None
        self.rows: list[Row] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(self.revision, placeholder="a revision: HEAD, main, a commit", id="diff-rev")
        yield Static(Text("Reading the revision…", "italic"), id="diff-counts")
        yield OptionList(id="diff-list")
        yield Static(id="diff-detail")
        yield KasFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Changes since a revision · {self.kas.package.name}"
        self.query_one("#diff-list").border_title = "Changes"
        self.query_one("#diff-rev").border_title = "Since"
        self.compute()

    # -- the diff -------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="diff")
    def compute(self) -> None:
        """Compare the package's folder with :attr:`revision`, off the event loop."""
        worker = get_current_worker()
        kas = self.kas
        options = CheckOptions(today=kas.today)
        try:
            diff: Diff | str = diff_since(kas.package.root, self.revision, options)
        except RevisionError as exc:
            diff = str(exc)
        except OSError as exc:
            diff = f"the package could not be read: {exc.strerror or exc}"
        if not worker.is_cancelled:
            self.app.call_from_thread(self.show, diff)

    def show(self, diff: Diff | str) -> None:
        """Show ``diff`` (or, a string, why there is none)."""
        counts = self.query_one("#diff-counts", Static)
        options = self.query_one("#diff-list", OptionList)
        options.clear_options()
        self.rows = []
        if isinstance(diff, str):
            self.diff = None
            counts.update(Text(diff, "red"))
            self._show_detail()
            return
        self.diff = diff
        counts.update(Text.assemble((diff.before, "bold"), " → working tree\n", counts_line(diff)))
        rows = diff_rows(diff)
        items: list[Option] = []
        for group, heading in GROUPS:
            mine = [r for r in rows if r.group == group]
            if not mine:
                continue
            title = Text.assemble((heading, "bold"), f" · {len(mine):,}")
            items.append(Option(title, id=HEADING + group, disabled=True))
            for row in mine:
                items.append(Option(self._prompt(row), id=str(len(self.rows))))
                self.rows.append(row)
        options.add_options(items)
        if self.rows:
            options.highlighted = 1  # the first row under the first heading
        self._show_detail()

    @staticmethod
    def _prompt(row: Row) -> Text:
        where = f"{row.path}:{row.line}" if row.line else row.path
        return Text.assemble(
            (f"{row.mark} ", _MARK_STYLE.get(row.mark, "")), where, ("  " + row.summary, "italic")
        )

    def current(self) -> Row | None:
        """The row highlighted, or ``None``."""
        options = self.query_one("#diff-list", OptionList)
        index = options.highlighted
        if index is None or index >= options.option_count:
            return None
        option_id = options.get_option_at_index(index).id or ""
        return None if option_id.startswith(HEADING) else self.rows[int(option_id)]

    @on(OptionList.OptionHighlighted, "#diff-list")
    def _show_detail(self) -> None:
        row = self.current()
        detail = self.query_one("#diff-detail", Static)
        if row is None:
            empty = self.diff is not None and not self.rows
            detail.update(Text("No change an agent would see." if empty else "", "italic"))
            return
        detail.update(Text.assemble((row.summary, "bold"), *(f"\n{d}" for d in row.detail)))

    # -- acting ---------------------------------------------------------------------------

    @on(Input.Submitted, "#diff-rev")
    def _revision_given(self, event: Input.Submitted) -> None:
        self.revision = event.value.strip() or "HEAD"
        self.query_one("#diff-counts", Static).update(Text("Reading the revision…", "italic"))
        self.query_one("#diff-list", OptionList).focus()
        self.compute()

    def action_focus_revision(self) -> None:
        self.query_one("#diff-rev", Input).focus()

    @on(OptionList.OptionSelected, "#diff-list")
    def action_open(self) -> None:
        row = self.current()
        if row is None:
            return
        package = self.kas.package
        if not (package.root / row.path).is_file():
            self.notify(f"{row.path} is not in the working package: the change removed it")
            return
        self.dismiss((row.path, row.line))


def open_diff_view(app: App) -> None:
    """Push the diff view (once); a row opened shows its file in the main view."""
    if any(isinstance(screen, DiffScreen) for screen in app.screen_stack):
        return

    def opened(place: tuple[str, int | None] | None) -> None:
        if place is not None:
            app.go_to_line(*place)  # type: ignore[attr-defined]

    app.push_screen(DiffScreen(), opened)
