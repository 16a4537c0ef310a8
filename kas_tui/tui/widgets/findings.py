"""The validation panel: the agent-ready check's findings, one row each."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, ProgressBar, Static

from kas_tui.features.check.findings import Finding, Report
from kas_tui.text.wording import counted, elide_words

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


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

    class Jump(Message):
        """The user picked a finding."""

        def __init__(self, finding: Finding) -> None:
            super().__init__()
            self.finding = finding

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.findings: list[Finding] = []

    def compose(self) -> ComposeResult:
        yield Static(id="findings-status")
        yield ProgressBar(id="findings-progress", show_eta=False)
        table: DataTable[Text] = DataTable(
            id="findings-table", cursor_type="row", zebra_stripes=True
        )
        yield table

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("severity", key="severity", width=8)
        table.add_column("code", key="code", width=7)
        table.add_column("file", key="file")
        table.add_column("message", key="message")

    def started(self) -> None:
        self.query_one("#findings-status", Static).update(Text("Checking…", "bold"))
        bar = self.query_one(ProgressBar)
        bar.display = True
        bar.update(total=100, progress=0)
        self.query_one(DataTable).clear()

    def progressed(self, stage: str, done: float) -> None:
        self.query_one(ProgressBar).update(progress=round(done * 100))
        self.query_one("#findings-status", Static).update(Text(f"Checking {stage}…", "bold"))

    def show_report(self, report: Report) -> None:
        """Fill the table: errors first, then warnings, then infos, each by file and line."""
        self.query_one(ProgressBar).display = False
        self.findings = sorted(
            report.findings, key=lambda f: (SEVERITY_RANK[f.severity], f.sort_key())
        )
        table = self.query_one(DataTable)
        table.clear()
        room = self._message_room()
        for number, finding in enumerate(self.findings):
            table.add_row(
                Text(finding.severity, SEVERITY_STYLE[finding.severity]),
                Text(finding.code),
                Text(_where(finding)),
                Text(elide_words(finding.message, room)),
                key=str(number),
            )
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
            ("   enter jumps to the file and line", "bright_black"),
        )
        self.query_one("#findings-status", Static).update(summary)

    def _message_room(self) -> int:
        """Columns left for the message beside the other columns (at least 24): a long
        message ends at a word with an ellipsis; Enter on its row says it whole."""
        table = self.query_one(DataTable)
        file_width = max((len(_where(f)) for f in self.findings), default=4)
        others = 8 + 7 + file_width + 2 * table.cell_padding * 4 + 2  # and the scrollbar
        return max(24, table.size.width - others)

    def on_resize(self) -> None:
        if not self.findings:
            return
        table = self.query_one(DataTable)
        room = self._message_room()
        for number, finding in enumerate(self.findings):
            table.update_cell(str(number), "message", Text(elide_words(finding.message, room)))

    def failed(self, message: str) -> None:
        self.query_one(ProgressBar).display = False
        self.query_one("#findings-status", Static).update(Text(message, "red"))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(self.Jump(self.findings[int(event.row_key.value)]))

    def next_after(self, current: int | None) -> int | None:
        """The row after ``current`` (wrapping), or ``None`` when there are no findings."""
        if not self.findings:
            return None
        return 0 if current is None else (current + 1) % len(self.findings)
