"""The bulk edit's preview: every file's diff before anything is written (files on the
left, diffs on the right), opened by ``p`` in :mod:`.bulk`."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from kas_tui.features.bulk_edit import Preview
from kas_tui.text.wording import counted
from kas_tui.tui.screens.choose import DIALOG_HINT, DiffScreen, diff_text, keyed_label

#: Changed files whose diffs the preview shows one after the other (above: one at a time).
PREVIEW_ALL_LIMIT = 200


class BulkPreviewScreen(DiffScreen):
    """Every file's diff before writing: files on the left, diffs on the right.

    Its Write button (``w``, or enter) writes them all (dismisses ``True``), Cancel
    (``c``) or escape does not. Up to
    :data:`PREVIEW_ALL_LIMIT` changed files, the diffs follow one another and the list
    jumps between them; above that, the right side shows the highlighted file's diff.
    """

    CSS_PATH = ["choose.tcss", "bulk_preview.tcss"]

    def __init__(self, title: str, result: Preview, *, confirm: str = "Write") -> None:
        label = f"{confirm} {counted(len(result.diffs), 'file')}"
        super().__init__(title, result.diff, confirm=label)
        self.result = result
        self.all_at_once = len(result.diffs) <= PREVIEW_ALL_LIMIT
        self.order: list[str] = [*result.diffs, *result.refused, *result.unchanged]

    def summary(self) -> Text:
        result = self.result
        text = Text()
        text.append(counted(len(result.diffs), "file"), "bold green")
        text.append(" will change · ")
        text.append(f"{len(result.unchanged):,} unchanged", "bold")
        text.append(" (nothing to do there)")
        if result.refused:
            text.append(" · ")
            text.append(f"{len(result.refused):,} refused", "bold red")
            text.append(" (left alone, see why on the left)")
        key = self.keys["diff-yes"]
        text.append(f"\nNothing is written until you press {key}; ctrl+z undoes it all at once.")
        return text

    def compose(self) -> ComposeResult:
        changed = len(self.result.diffs)
        with Vertical(id="bulk-preview-box") as box:
            box.border_title = Text(self.title_text)
            box.border_subtitle = f"↑↓ files · {DIALOG_HINT}"
            yield Static(self.summary(), id="bulk-preview-summary")
            with Horizontal(id="bulk-preview-main"):
                yield OptionList(*self._options(), id="bulk-preview-files")
                with VerticalScroll(id="bulk-preview-scroll"):
                    if self.all_at_once:
                        for number, (path, diff) in enumerate(self.result.diffs.items()):
                            yield Static(
                                self._section(path, diff),
                                id=f"bulk-diff-{number}",
                                classes="bulk-diff",
                            )
                        if not self.result.diffs:
                            yield Static(Text("No file changes.", "bold"), classes="bulk-diff")
                    else:
                        yield Static(id="bulk-diff-one", classes="bulk-diff")
            with Horizontal(id="bulk-preview-buttons"):
                for id_, _, label, key in self.answers:
                    yield Button(
                        keyed_label(label, key),
                        id=id_,
                        variant="primary" if id_ == self.default else "default",
                        disabled=id_ == "diff-yes" and not changed,
                    )

    def _options(self) -> Iterable[Option]:
        """One file an option: its name on the first line, its folder (and the lines it
        adds and removes) dim on the second, each cut with … rather than wrapped, so a
        long path never takes a third line in a narrow list."""
        for number, path in enumerate(self.order):
            folder, _slash, name = path.rpartition("/")
            where = f"{folder}/" if folder else "./"
            if path in self.result.diffs:
                added, removed = self.result.counts.get(path, (0, 0))
                mark, style, note = ("✎ ", "green"), "", f"+{added} −{removed}  "
            elif path in self.result.refused:
                mark, style, note = ("✗ ", "red"), "red", "refused  "
            else:
                mark, style, note = ("= ", "bright_black"), "bright_black", "unchanged  "
            lines = [
                Text.assemble(mark, (name, style)),
                Text.assemble("  ", (note + where, "bright_black")),
            ]
            for line in lines:
                line.no_wrap, line.overflow = True, "ellipsis"
            yield Option(Group(*lines), id=str(number))

    def _section(self, path: str, diff: str) -> Text:
        added, removed = self.result.counts.get(path, (0, 0))
        text = Text.assemble(  # the counts first: a long path folds, they stay whole
            ("▌ ", "bold magenta"),
            (f"+{added} −{removed}  ", "bright_black"),
            (path, "bold"),
            "\n",
        )
        body = "".join(diff.splitlines(keepends=True)[2:])  # the --- / +++ lines name it
        text.append_text(diff_text(body, context="bright_black"))
        return text

    def _explain(self, path: str) -> Text:
        if path in self.result.diffs:
            return self._section(path, self.result.diffs[path])
        if path in self.result.refused:
            return Text.assemble(
                ("✗ ", "red"), (path, "bold"), "\nrefused, left alone: ", self.result.refused[path]
            )
        return Text.assemble(
            ("= ", "bright_black"), (path, "bold"), "\nunchanged: it already is as asked."
        )

    def focus_first(self) -> None:
        self.query_one("#bulk-preview-files", OptionList).focus()

    def on_mount(self) -> None:
        files = self.query_one("#bulk-preview-files", OptionList)
        if self.order:
            files.highlighted = 0
        if not self.all_at_once and self.order:
            self.query_one("#bulk-diff-one", Static).update(self._explain(self.order[0]))

    @on(OptionList.OptionHighlighted, "#bulk-preview-files")
    def _file_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        number = int(event.option.id or 0)
        path = self.order[number]
        if not self.all_at_once:
            self.query_one("#bulk-diff-one", Static).update(self._explain(path))
            self.query_one("#bulk-preview-scroll").scroll_home(animate=False)
        elif path in self.result.diffs:
            section = self.query_one(f"#bulk-diff-{number}")
            self.query_one("#bulk-preview-scroll").scroll_to_widget(
                section, animate=False, top=True
            )
        else:
            self.notify(str(self._explain(path)), timeout=4)
