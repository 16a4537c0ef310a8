"""The app's validation: ``v`` checks the package in a thread worker (agent-ready rules,
progress in the findings panel), the findings mark the tree, a finding jumps to its file
and line, and the report is checked again after every change while the panel shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import DataTable
from textual.worker import get_current_worker

from kas_tui.tui.screens.main_screen import on_screen
from kas_tui.tui.widgets.findings import FindingsPanel
from kas_tui.tui.widgets.nav_tree import NavTree

if TYPE_CHECKING:
    from textual.widget import Widget

    from kas_tui.features.check.findings import Finding, Report
    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.controllers.navigation import Navigation


class ValidationController:
    """The last report, the findings panel's row jumped to last, and the checks."""

    def __init__(self, app: Host, nav: Navigation) -> None:
        self.app = app
        self.nav = nav
        self.report: Report | None = None
        self._finding_row: int | None = None
        self._focus_before: Widget | None = None  # where the focus was before ``v``

    @property
    def shown(self) -> bool:
        """Whether the findings panel is shown."""
        return bool(self.app.query_one(FindingsPanel).display)

    def validate(self) -> None:
        """``v``: show the findings panel and check the package; when it shows, close it."""
        panel = self.app.query_one(FindingsPanel)
        if panel.display:
            self.close()
            return
        focused = self.app.screen_stack[0].focused
        if focused is not None and panel not in focused.ancestors:
            self._focus_before = focused
        panel.display = True
        panel.started()
        self.app.refresh_bindings()  # esc closes it now: the footer says so
        self._run_check()

    def close(self) -> None:
        """``escape`` (or ``v`` again): hide the findings panel, and give the focus back
        to where it was before ``v`` (the tree, when that is gone). Its marks in the tree
        stay, and ``n`` still goes from finding to finding."""
        panel = self.app.query_one(FindingsPanel)
        if not panel.display:
            return
        screen = self.app.screen_stack[0]
        if screen.maximized is panel:
            screen.minimize()
        panel.display = False
        self.app.refresh_bindings()
        back, self._focus_before = self._focus_before, None
        if back is None or not back.is_attached or not on_screen(back):
            back = self.app.query_one(NavTree)
        back.focus()

    def refresh(self) -> None:
        """Check again, in the background and without taking the focus, when the
        findings panel shows a report: after an edit, an import, an undo or a reload
        its counts and rows are the package's as it is now."""
        if self.app.query_one(FindingsPanel).display and self.report is not None:
            self._run_check(focus=False)

    def _run_check(self, focus: bool = True) -> None:
        self.app.run_worker(
            lambda: self._check(focus),
            name="_run_check",
            group="check",
            exclusive=True,
            thread=True,
        )

    def _check(self, focus: bool) -> None:
        """In a thread worker: the check, its progress shown as it goes."""
        from kas_tui.features.check import check

        app = self.app
        worker = get_current_worker()

        def progress(stage: str, done: float) -> None:
            if not worker.is_cancelled:
                app.call_from_thread(app.query_one(FindingsPanel).progressed, stage, done)

        try:
            report = check(app.package, agent_ready=True, today=app.today, progress=progress)
        except Exception as exc:  # noqa: BLE001 - a bug in one rule must not kill the app
            app.call_from_thread(app.query_one(FindingsPanel).failed, f"check failed: {exc}")
            return
        if not worker.is_cancelled:
            app.call_from_thread(self._checked, report, focus)

    def _checked(self, report: Report, focus: bool = True) -> None:
        self.report = report
        self._finding_row = None
        self.app.query_one(FindingsPanel).show_report(report)
        self.app.query_one(NavTree).set_marks(report.findings)
        panel = self.app.query_one(FindingsPanel)
        if focus and panel.findings:  # none: the focus stays where it is
            panel.query_one(DataTable).focus()

    def jump_to(self, finding: Finding) -> None:
        """Show the finding's file, reveal it in the tree, and scroll to its line."""
        documents = self.app.package.documents
        path = finding.path
        place = "SKILL.md" if path in ("", "SKILL.md") else path
        if place != "SKILL.md" and place not in documents and not place.endswith("index.md"):
            folder = place.rstrip("/")
            place = f"{folder}/index.md" if folder in self.app.package.indexes else place
        self.nav.go_to_line(place, finding.line)
        where = f":{finding.line}" if finding.line else ""
        self.app.notify(f"{finding.code} {finding.path}{where}: {finding.message}", timeout=6)

    def next_finding(self) -> None:
        """``n``: the next finding's file and line."""
        panel = self.app.query_one(FindingsPanel)
        row = panel.next_after(self._finding_row)
        if row is None:
            self.app.notify("No findings (press v to validate)")
            return
        self._finding_row = row
        panel.query_one(DataTable).move_cursor(row=row)
        self.jump_to(panel.findings[row])
