"""The validation panel: the agent-ready check's findings, one row each.

It is as tall as what it holds (a clean check is one line), at most a third of the
screen; a message wraps onto up to three lines beside a file column that gives way at
narrow widths (its folders first), so that it can be read at 80 columns.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, ProgressBar, Static

from kas_tui.features.check.findings import Finding, Report
from kas_tui.text.wording import counted, elide_path, wrap_words
from kas_tui.tui.commands import pane_bindings

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
#: Lines a finding's message may take in its row; a longer one ends at a word with "…".
MESSAGE_LINES = 3
#: Columns the message keeps before the file column gives way to it.
MESSAGE_LEAST = 36
#: Columns the file column keeps however narrow the screen.
FILE_LEAST = 24


def _where(finding: Finding) -> str:
    return f"{finding.path or '.'}:{finding.line}" if finding.line else finding.path or "."


class FindingsPanel(Vertical):
    """Progress while a check runs, then a table; enter or a click jumps to the finding."""

    DEFAULT_CSS = """
    #findings-progress {
        width: 1fr;
    }

    #findings-table {
        height: 1fr;
    }
    """

    BINDINGS = pane_bindings("findings")

    class Jump(Message):
        """The user picked a finding."""

        def __init__(self, finding: Finding) -> None:
            super().__init__()
            self.finding = finding

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.findings: list[Finding] = []
        self._said = Text()  # what the status line says

    def _say(self, text: Text) -> None:
        self._said = text
        self.query_one("#findings-status", Static).update(text)

    def compose(self) -> ComposeResult:
        yield Static(id="findings-status")
        yield ProgressBar(id="findings-progress", show_eta=False)
        table: DataTable[Text] = DataTable(
            id="findings-table", cursor_type="row", zebra_stripes=True
        )
        yield table

    def on_mount(self) -> None:
        self._laid_for = 0  # the table width the rows were wrapped for
        self._add_columns(self.query_one(DataTable), 4, 24)

    @staticmethod
    def _add_columns(table: DataTable, file_width: int, message_width: int) -> None:
        table.add_column("severity", key="severity", width=8)
        table.add_column("code", key="code", width=7)
        table.add_column("file", key="file", width=file_width)
        table.add_column("message", key="message", width=message_width)

    def started(self) -> None:
        self._say(Text("Checking…", "bold"))
        bar = self.query_one(ProgressBar)
        bar.display = True
        bar.update(total=100, progress=0)
        table = self.query_one(DataTable)
        table.clear()
        table.display = False
        self.border_subtitle = "esc closes"
        self._fit()

    def progressed(self, stage: str, done: float) -> None:
        self.query_one(ProgressBar).update(progress=round(done * 100))
        self._say(Text(f"Checking {stage}…", "bold"))

    def show_report(self, report: Report) -> None:
        """Fill the table: errors first, then warnings, then infos, each by file and line."""
        self.query_one(ProgressBar).display = False
        self.findings = sorted(
            report.findings, key=lambda f: (SEVERITY_RANK[f.severity], f.sort_key())
        )
        self._fill()
        summary = Text.assemble(
            (
                counted(report.count("error"), "error"),
                "bold red" if report.count("error") else "green",
            ),
            " · ",
            (
                counted(report.count("warning"), "warning"),
                "yellow" if report.count("warning") else "",
            ),
            " · ",
            counted(report.count("info"), "info"),
            (
                f"   {counted(report.documents, 'document')} in {report.seconds:.2f} s",
                "bright_black",
            ),
        )
        self._say(summary)
        self.border_subtitle = (
            "enter jumps to the file and line · esc closes" if self.findings else "esc closes"
        )

    def _widths(self) -> tuple[int, int]:
        """Columns of the file and of the message: the message keeps MESSAGE_LEAST, the
        file column gives way first (to FILE_LEAST, its folders elided)."""
        table = self.query_one(DataTable)
        width = table.size.width or self.size.width or 80
        padding = 2 * table.cell_padding * 4 + 2  # and the scrollbar
        room = width - 8 - 7 - padding
        longest = max((len(_where(f)) for f in self.findings), default=4)
        file_width = max(4, min(longest, max(FILE_LEAST, room - MESSAGE_LEAST)))
        return file_width, max(12, room - file_width)

    def _fill(self) -> None:
        """The rows, wrapped for the table's width (again after a resize)."""
        table = self.query_one(DataTable)
        row = table.cursor_row
        file_width, message_width = self._widths()
        table.clear(columns=True)
        self._add_columns(table, file_width, message_width)
        for number, finding in enumerate(self.findings):
            lines = wrap_words(finding.message, message_width, MESSAGE_LINES)
            table.add_row(
                Text(finding.severity, SEVERITY_STYLE[finding.severity]),
                Text(finding.code),
                Text(elide_path(_where(finding), file_width)),
                Text("\n".join(lines)),
                key=str(number),
                height=len(lines),
            )
        if self.findings:
            table.move_cursor(row=min(row, len(self.findings) - 1))
        table.display = bool(self.findings)
        self._laid_for = table.size.width
        self._fit()

    def _fit(self) -> None:
        """As tall as what the panel holds (CSS caps it at a third of the screen)."""
        table = self.query_one(DataTable)
        width = max(1, self.size.width or 78)
        rows = max(1, -(-self._said.cell_len // width))  # the status line's lines
        rows += 1 if self.query_one(ProgressBar).display else 0
        if table.display:
            rows += 1 + sum(r.height for r in table.rows.values())
        self.styles.height = rows + 2  # and the frame

    def on_resize(self) -> None:
        table = self.query_one(DataTable)
        if self.findings and table.size.width and table.size.width != self._laid_for:
            self._fill()

    def failed(self, message: str) -> None:
        self.query_one(ProgressBar).display = False
        self._say(Text(message, "red"))
        self._fit()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.Jump(self.findings[int(event.row_key.value)]))

    def next_after(self, current: int | None) -> int | None:
        """The row after ``current`` (wrapping), or ``None`` when there are no findings."""
        if not self.findings:
            return None
        return 0 if current is None else (current + 1) % len(self.findings)
