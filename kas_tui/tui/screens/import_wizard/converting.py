"""Step 2: converting the files in a worker thread, one line per file as each is done."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.widgets import (
    ContentSwitcher,
    ProgressBar,
    Static,
)
from textual.widgets.option_list import Option

from kas_tui.core import form_fields as F
from kas_tui.text.slug import parse_folder as parse_new_bundle
from kas_tui.tui.screens.import_wizard.files import FilePicker
from kas_tui.tui.screens.import_wizard.labels import plural
from kas_tui.tui.screens.import_wizard.plan_form import PlanForm
from kas_tui.tui.screens.import_wizard.preview import PlanList
from kas_tui.tui.screens.kas_screen import KasScreen
from kas_tui.tui.widgets.inputs import CleanInput

if TYPE_CHECKING:
    from kas_tui.features.importing import PlannedImport
    from kas_tui.features.importing.convert import Result


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker now, with a stderr it can hand over.

    The conversion pool's processes need it, and it passes ``sys.stderr.fileno()`` to its
    own process; under Textual ``sys.stderr`` is a capture whose ``fileno()`` is -1, and
    the pool's start fails with "bad value(s) in fds_to_keep". Started here (once, in
    the app's thread) with /dev/null as its stderr, so it never writes over the screen.
    """
    from multiprocessing import resource_tracker

    saved = sys.stderr
    try:
        with open(os.devnull, "w") as quiet:
            sys.stderr = quiet
            resource_tracker.ensure_running()
    except OSError:
        pass
    finally:
        sys.stderr = saved


class ConvertingStep(KasScreen[None]):
    """The wizard's second step (its state is the wizard's)."""

    def action_convert(self) -> None:
        self.error = ""
        if not self._take_typed():
            self._files_status("Fix or remove the paths that cannot be found", error=True)
            return
        if not self.marked:
            self._files_status("Choose files first: space marks one in the tree", error=True)
            return
        type_box = self.query_one("#iw-type", CleanInput)
        doc_type, problem = F.parse_type(type_box.value) if type_box.value.strip() else (None, None)
        if problem:
            self._files_status(f"Type: {problem}", error=True)
            type_box.focus()
            return
        new_box = self.query_one("#iw-new-bundle", CleanInput)
        _, problem = parse_new_bundle(new_box.value)
        if problem:
            self._files_status(f"New bundle: {problem}", error=True)
            new_box.focus()
            return
        self.files = list(self.marked)
        self.target = self._bundle_value()
        self.results = {}
        self._stop = threading.Event()
        self.query_one("#iw-conv-title", Static).update(
            Text.assemble(
                ("Converting ", "bold"),
                (plural(len(self.files), "file"), "bold"),
                f" into {self._bundle_name(self.target)}",
                (" …", "dim"),
            )
        )
        self.query_one(ProgressBar).update(total=len(self.files), progress=0)
        self._show_conversion()
        self._go("converting")
        start_resource_tracker()
        self._convert(self.files, self.target, doc_type, self._stop)

    @work(thread=True, exclusive=True, group="import")
    def _convert(
        self, files: list[Path], bundle: str, doc_type: str | None, stop: threading.Event
    ) -> None:
        from kas_tui.features.importing import plan_import

        def reported(number: int, result: Result) -> None:
            self._from_thread(self._converted_one, stop, number, result)

        try:
            plans = plan_import(
                self.package,
                files,
                bundle,
                type=doc_type,
                limits=self.limits,
                on_result=reported,
                should_stop=stop.is_set,
                converted=self.conversions,
            )
        except Exception as exc:  # noqa: BLE001 - a bug in a converter must not kill the app
            self._from_thread(self._convert_failed, stop, f"{type(exc).__name__}: {exc}")
            return
        self._from_thread(self._planned, stop, plans)

    def _from_thread(self, callback: Any, stop: threading.Event, *args: Any) -> None:
        if stop.is_set():
            return
        try:
            self.app.call_from_thread(callback, *args)
        except RuntimeError:  # the app is closing
            stop.set()

    def _converted_one(self, number: int, result: Result) -> None:
        if self.step != "converting":
            return
        self.results[number] = result
        self.query_one(ProgressBar).update(progress=len(self.results))
        self._show_conversion()

    def _show_conversion(self) -> None:
        text = Text()
        for number, path in enumerate(self.files):
            if text:
                text.append("\n")
            result = self.results.get(number)
            if result is None:
                text.append("·  ", "dim")
                text.append(path.name, "dim")
            elif hasattr(result, "reason"):
                text.append("✗  ", "bold red")
                text.append(str(result), "red")
            else:
                text.append("✓  ", "bold green")
                text.append(path.name)
                seconds = getattr(result, "seconds", 0.0)
                text.append(f"  {getattr(result, 'kind', '')} · {seconds:.1f} s", "dim")
        done = len(self.results)
        self.query_one("#iw-conv-lines", Static).update(text)
        self.query_one("#iw-progress").border_title = f"{done} of {len(self.files)}"

    def action_stop(self) -> None:
        self._stop.set()
        self.workers.cancel_group(self, "import")
        self._go("files")
        self._files_status("Conversion stopped; nothing was imported", error=True)
        self.query_one(FilePicker).focus()

    def _convert_failed(self, message: str) -> None:
        self._go("files")
        self._files_status(f"The conversion failed: {message}", error=True)

    async def _planned(self, plans: list[PlannedImport]) -> None:
        if self.step != "converting":
            return
        self.plans = plans
        self.skipped = set()
        self.originals = {}
        self._shown = None
        self._body_of = None
        forms = self.query_one("#iw-forms", ContentSwitcher)
        for form in list(forms.query(PlanForm)):
            await form.remove()
        listed = self.query_one("#iw-plans", PlanList)
        listed.clear_options()
        listed.add_options(Option(self._plan_label(n), id=str(n)) for n in range(len(plans)))
        self._go("preview")
        listed.focus()
        first = next((n for n, p in enumerate(plans) if p.writes), 0)
        if plans:
            listed.highlighted = first
            await self._show_plan(first)
        self._refresh_summary()
