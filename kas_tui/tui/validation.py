"""The app's validation: ``v`` checks the package in a thread worker (agent-ready rules,
progress in the findings panel), the findings mark the tree, a finding jumps to its file
and line, and the report is checked again after every change while the panel shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.widgets import DataTable
from textual.worker import get_current_worker

from kas_tui.tui.widgets.body_pane import BodyPane
from kas_tui.tui.widgets.findings import FindingsPanel
from kas_tui.tui.widgets.nav_tree import NavTree

if TYPE_CHECKING:
    from kas_tui.features.check.model import Finding, Report


class ValidationMixin:
    """Mixed into :class:`~kas_tui.tui.app.KasApp` (which provides ``package``, ``go``...)."""

    def action_validate(self) -> None:
        panel = self.query_one(FindingsPanel)
        panel.display = True
        panel.started()
        self._run_check()

    @work(thread=True, exclusive=True, group="check")
    def _run_check(self, focus: bool = True) -> None:
        from kas_tui.features.check import check

        worker = get_current_worker()

        def progress(stage: str, done: float) -> None:
            if not worker.is_cancelled:
                self.call_from_thread(self.query_one(FindingsPanel).progressed, stage, done)

        try:
            report = check(self.package, agent_ready=True, today=self.today, progress=progress)
        except Exception as exc:  # noqa: BLE001 - a bug in one rule must not kill the app
            self.call_from_thread(self.query_one(FindingsPanel).failed, f"check failed: {exc}")
            return
        if not worker.is_cancelled:
            self.call_from_thread(self._checked, report, focus)

    def _checked(self, report: Report, focus: bool = True) -> None:
        self.report = report
        self._finding_row = None
        self.query_one(FindingsPanel).show_report(report)
        self.query_one(NavTree).set_marks(report.findings)
        if focus:
            self.query_one(FindingsPanel).query_one(DataTable).focus()

    def _refresh_findings(self) -> None:
        """Check again, in the background and without taking the focus, when the
        findings panel shows a report: after an edit, an import, an undo or a reload
        its counts and rows are the package's as it is now."""
        if self.query_one(FindingsPanel).display and self.report is not None:
            self._run_check(focus=False)

    def on_findings_panel_jump(self, message: FindingsPanel.Jump) -> None:
        self.jump_to(message.finding)

    def jump_to(self, finding: Finding) -> None:
        """Show the finding's file, reveal it in the tree, and scroll to its line."""
        path = finding.path
        place = "SKILL.md" if path in ("", "SKILL.md") else path
        if (
            place != "SKILL.md"
            and place not in self.package.documents
            and not place.endswith("index.md")
        ):
            folder = place.rstrip("/")
            place = f"{folder}/index.md" if folder in self.package.indexes else place
        self.go_to_line(place, finding.line)
        where = f":{finding.line}" if finding.line else ""
        self.notify(f"{finding.code} {finding.path}{where}: {finding.message}", timeout=6)

    def go_to_line(self, place: str, line: int | None) -> None:
        """Show ``place``, revealed in the tree, its body scrolled to file line ``line``."""
        self.go(place, reveal=True)
        if line and place in self.package.documents:
            doc = self.package.documents[place]
            self.query_one(BodyPane).scroll_to_line(line, doc.body_line)
        elif line:
            self.query_one(BodyPane).scroll_to_line(line)

    def action_next_finding(self) -> None:
        panel = self.query_one(FindingsPanel)
        row = panel.next_after(self._finding_row)
        if row is None:
            self.notify("No findings (press v to validate)")
            return
        self._finding_row = row
        panel.query_one(DataTable).move_cursor(row=row)
        self.jump_to(panel.findings[row])
