"""The import wizard: files in, drafted documents out, written all at once or not at all.

A full screen over the headless :mod:`kas_tui.importing` API, in three steps:

1. **Files.** A file picker rooted where kas-tui was started (space or enter marks a
   file; space on a folder marks the files it holds; formats kas-tui cannot convert are
   dimmed), an input for typed or pasted paths (comma or line separated; ``~``, globs
   and folders work), the target bundle (the bundle of the document shown, by default,
   or a new one typed as its folder) and an optional type.
2. **Converting.** :func:`~kas_tui.importing.plan_import` in a worker thread (it converts
   in worker processes), with a progress bar and one line per file as each is done;
   escape stops it and goes back to the files.
3. **Preview.** The planned files on the left (what each becomes, or why it failed);
   for the highlighted one, where it goes and the index entry that will be added, the
   drafted frontmatter in the editor's own form (same rows, same checks: an edit changes
   the draft that will be written) under the file name, which can be changed while it
   stays free in the bundle, and the body rendered. Going back to the files and on
   again converts only files that changed. Space leaves a file out,
   ``u`` updates the document a re-imported file duplicates, ``d`` shows the whole diff.
   ctrl+s writes everything as one action (one ctrl+z undoes it); escape asks before
   dropping the drafts. A refused write (a file changed on disk, a folder that cannot
   be written) is shown here, nothing is left half-written, and the edits stay.

Nothing is written before ctrl+s: cancelling at any step leaves no trace.
"""

from __future__ import annotations

import glob
import os
import re
import sys
import threading
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import (
    Button,
    ContentSwitcher,
    DirectoryTree,
    Header,
    Input,
    Label,
    Markdown,
    OptionList,
    ProgressBar,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from ... import fields as F
from ...importing.convert import CODE_EXTS, CONVERTERS, MARKDOWN_EXTS, TEXT_EXTS
from ...importing.draft import names_in
from ...importing.slug import RESERVED as SLUG_RESERVED
from ...importing.slug import RESERVED_AT_ROOT, slugify
from ...okf.errors import EditError, FormatError
from ..edits import EditDecided, EditOutcome
from ..widgets.fields import (
    CleanInput,
    DateRow,
    DescriptionRow,
    FieldRow,
    HistoryView,
    StatusRow,
    TagsRow,
    TextRow,
    YamlRow,
)
from ..widgets.footer import KasFooter
from .choose import DiffScreen, ask_unsaved
from .kas_screen import KasScreen

if TYPE_CHECKING:
    import datetime as dt

    from textual.app import App
    from textual.widgets._directory_tree import DirEntry
    from textual.widgets.tree import TreeNode

    from ...importing import Draft, Limits, PlannedImport
    from ...importing.convert import Result
    from ...package import Package

#: Extensions kas-tui converts (anything else is tried as text, and dimmed in the picker).
SUPPORTED = frozenset(MARKDOWN_EXTS | TEXT_EXTS | set(CODE_EXTS) | set(CONVERTERS))
FORMATS = (
    "PDF · Word .docx · PowerPoint .pptx · Excel .xlsx .xls · HTML · EPUB · CSV · "
    "notebooks .ipynb · Outlook .msg · Markdown · text · JSON YAML XML TOML"
)
#: The fields the preview's form edits, in the editor's order.
FORM_KEYS = ("type", "title", "description", "tags", "status", "stale_after")
#: The form's row for the new document's file name (not a frontmatter key).
FILE_KEY = "file-name"


def parse_new_bundle(text: str) -> tuple[str | None, str | None]:
    """A new bundle typed as its folder from the package root (``billing/disputes``):
    the path (``""`` when none is typed), or the problem."""
    path = text.strip().strip("/")
    if not path:
        return "", None
    parts = path.split("/")
    for part in parts:
        if slugify(part, fallback="") != part:
            hint = slugify(part, fallback="")
            return None, f"{part!r} is not a folder name" + (f"; as in {hint}" if hint else "")
    return "/".join(parts), None


def parse_file_name(text: str) -> tuple[str | None, str | None]:
    """A typed file name as the document's slug (``.md`` is optional), or the problem."""
    stem = text.strip().removesuffix(".md")
    if not stem:
        return None, "required: the document's file name"
    if slugify(stem) != stem:
        return None, f"lower-case letters, digits and single hyphens, as in {slugify(stem)}"
    if stem in SLUG_RESERVED:
        return None, f"{stem}.md is one of the package's own files"
    return stem, None


#: Characters of a body rendered in the preview (a 300-page PDF would take seconds).
BODY_PREVIEW = 30_000

_GLYPHS = {
    "create": ("+", "bold green"),
    "update": ("↻", "bold cyan"),
    "unchanged": ("=", "bright_black"),
    "duplicate": ("≡", "bold yellow"),
    "failed": ("✗", "bold red"),
}
_QUOTED = re.compile(r'"([^"]*)"|\'([^\']*)\'|([^,\n]+)')


def supported(path: Path) -> bool:
    """Whether ``path`` has an extension kas-tui knows how to convert."""
    return path.suffix.lower() in SUPPORTED


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'s' * (count != 1)}"


def _size(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError:
        return "?"
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} B"


def files_in(folder: Path) -> list[Path]:
    """The files of ``folder`` (not below) kas-tui can convert, hidden ones left out."""
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name.casefold())
    except OSError:
        return []
    return [p for p in entries if p.is_file() and not p.name.startswith(".") and supported(p)]


def parse_paths(text: str, start: Path) -> tuple[list[Path], list[str]]:
    """The files named in ``text`` (comma or line separated), and what could not be found.

    Relative paths are read from ``start``; ``~`` is the home folder; quotes keep a comma
    in a name; a glob (``*.pdf``) names every file it matches; a folder names the files
    it holds that kas-tui can convert.
    """
    found: list[Path] = []
    problems: list[str] = []
    for match in _QUOTED.finditer(text):
        raw = next(g for g in match.groups() if g is not None).strip()
        if not raw:
            continue
        path = Path(os.path.expanduser(raw))
        if not path.is_absolute():
            path = start / path
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            inside = files_in(path)
            found.extend(inside)
            if not inside:
                problems.append(f"{raw}: no file kas-tui can convert in this folder")
        elif glob.has_magic(raw):
            matches = sorted(Path(p) for p in glob.glob(str(path)) if Path(p).is_file())
            found.extend(matches)
            if not matches:
                problems.append(f"{raw}: matches no file")
        else:
            problems.append(f"{raw}: no such file")
    resolved = [Path(os.path.abspath(p)) for p in found]
    return list(dict.fromkeys(resolved)), problems


# --- the draft, edited in memory ----------------------------------------------------------


def _with_key(mapping: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``mapping`` with ``key`` set; a new key goes where the editor's order puts it."""
    if key in mapping:
        return {**mapping, key: value}
    before = FORM_KEYS[: FORM_KEYS.index(key)] if key in FORM_KEYS else FORM_KEYS
    items = list(mapping.items())
    at = 0
    for i, (k, _) in enumerate(items):
        if k in before:
            at = i + 1
    items.insert(at, (key, value))
    return dict(items)


def set_draft_field(draft: Draft, key: str, value: Any) -> None:
    """Set one frontmatter field of ``draft`` (:data:`kas_tui.fields.REMOVE` drops it).

    A Markdown source's own keys are patched in its YAML as written (comments and order
    survive). Raises :class:`EditError` or :class:`ValueError`, with the draft as it
    was, when the document would not read back with the new value.
    """
    converted = draft.converted
    saved = (draft.frontmatter, list(draft.drafted), converted.frontmatter)
    saved_text = converted.frontmatter_text
    foreign = converted.frontmatter or {}
    try:
        if value is F.REMOVE:
            draft.frontmatter = {k: v for k, v in draft.frontmatter.items() if k != key}
        else:
            draft.frontmatter = _with_key(draft.frontmatter, key, value)
        if converted.frontmatter_text is not None and key in foreign:
            converted.frontmatter_text = F.apply_changes(converted.frontmatter_text, [(key, value)])
            if value is F.REMOVE:
                converted.frontmatter = {k: v for k, v in foreign.items() if k != key}
            else:
                converted.frontmatter = {**foreign, key: value}
            if key in draft.drafted:
                draft.drafted.remove(key)
        elif value is F.REMOVE:
            if key in draft.drafted:
                draft.drafted.remove(key)
        elif key not in draft.drafted:
            draft.drafted.append(key)
        draft.render()  # raises when the file would not read back as intended
    except (EditError, FormatError, ValueError):
        draft.frontmatter, draft.drafted, converted.frontmatter = saved
        converted.frontmatter_text = saved_text
        raise


def _parse_title(text: str) -> tuple[Any, str | None]:
    value, error = F.parse_text(text)
    if value is F.REMOVE:
        return None, "a title is required: the index entry and the tree show it"
    return value, error


def _by_use(values: Iterable[str]) -> list[str]:
    counts = Counter(v for v in values if v)
    return sorted(counts, key=lambda v: (-counts[v], v.casefold()))


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


def _plain_text(value: Any) -> bool:
    return value is None or (isinstance(value, str) and F.control_error(value) is None)


def _clip_body(body: str) -> str:
    if len(body) <= BODY_PREVIEW:
        return body
    cut = body.rfind("\n", 0, BODY_PREVIEW)
    cut = cut if cut > BODY_PREVIEW // 2 else BODY_PREVIEW
    rest = len(body) - cut
    return f"{body[:cut]}\n\n---\n\n*… {rest:,} more characters, written but not shown here.*\n"


# --- step 1: the file picker -----------------------------------------------------------------


class FilePicker(DirectoryTree):
    """A directory tree where files are marked for import (space); unknown formats dimmed."""

    BINDINGS = [Binding("space", "toggle_node", "Mark", key_display="space")]

    class Toggled(Message):
        """The user marked or unmarked ``paths`` (a file, or a folder's files)."""

        def __init__(self, picker: FilePicker, paths: list[Path], folder: bool) -> None:
            super().__init__()
            self.picker = picker
            self.paths = paths
            self.folder = folder

    def __init__(self, path: Path, marked: dict[Path, None], **kwargs: Any) -> None:
        super().__init__(path, **kwargs)
        self.marked = marked  # shared with the screen, which owns the selection

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".")]

    def render_label(self, node: TreeNode[DirEntry], base_style: Any, style: Any) -> Text:
        label = super().render_label(node, base_style, style)
        entry = node.data
        if entry is None or node.allow_expand:
            return label
        path = Path(os.path.abspath(entry.path))
        if path in self.marked:
            return Text.assemble(("● ", "bold green"), label)
        if not supported(path):
            label.stylize("dim")
        return Text.assemble("  ", label)

    def action_toggle_node(self) -> None:
        """Space: mark the file under the cursor, or every convertible file of a folder."""
        node = self.cursor_node
        if node is None or node.data is None:
            return
        path = Path(os.path.abspath(node.data.path))
        if node.allow_expand:
            self.post_message(self.Toggled(self, files_in(path), True))
        else:
            self.post_message(self.Toggled(self, [path], False))

    def refresh_marks(self) -> None:
        stack = [self.root]
        while stack:
            node = stack.pop()
            node.refresh()
            stack.extend(node.children)


class SelectedList(OptionList):
    """The files chosen so far; delete (or space) takes the highlighted one out."""

    BINDINGS = [Binding("delete,backspace,space", "screen.unselect", "Remove", key_display="del")]


class PlanList(OptionList):
    """The planned files of the preview."""

    BINDINGS = [
        Binding("space", "screen.toggle_skip", "Skip/include", key_display="space"),
        Binding("u", "screen.update_instead", "Update instead"),
        Binding("d", "screen.diff", "Diff"),
    ]


class PlanForm(VerticalScroll):
    """The drafted frontmatter of one planned document, as the frontmatter editor's rows."""

    def __init__(self, number: int, draft: Draft, types: list[str], tags: list[str], today: Any):
        super().__init__(id=f"iw-form-{number}", classes="iw-form")
        self.number = number
        self.draft = draft
        self.types = types
        self.tags = tags
        self.today = today

    def compose(self) -> ComposeResult:
        meta = self.draft.frontmatter
        with Vertical(classes="iw-fields"):
            yield TextRow(
                FILE_KEY,
                self.draft.slug,
                parse=parse_file_name,
                hint=".md is added; the name must be free in the bundle",
                label="file name",
            )
            for key in FORM_KEYS:
                yield self._row_for(key, meta.get(key))
        yield Static(Text("Kept as drafted", "bold"), classes="me-section")
        yield Static(self._kept(), classes="iw-kept")
        history = HistoryView(classes="iw-history")
        history.show(F.history(meta))
        yield history

    def _row_for(self, key: str, value: Any) -> FieldRow:
        if key == "description" and _plain_text(value):
            return DescriptionRow(value, self._title_now)
        if key == "tags" and (
            value is None
            or (
                isinstance(value, list)
                and all(isinstance(t, str) and _plain_text(t) for t in value)
            )
        ):
            return TagsRow(value, self.tags)
        if key == "status" and _plain_text(value):
            return StatusRow(value)
        if key == "stale_after" and _plain_text(value):
            return DateRow(value, self.today)
        if key in ("type", "title") and _plain_text(value):
            used = ", ".join(self.types[:4])
            hint = (f"required; used here: {used}" if key == "type" and used else "required") + (
                " · inferred from the file" if key == "type" else ": the index entry's text"
            )
            return TextRow(
                key,
                value,
                parse=F.parse_type if key == "type" else _parse_title,
                hint=hint,
                suggestions=self.types if key == "type" else (),
            )
        return YamlRow(key, value, note=f"{key}: the value the file gives, as YAML")

    def _title_now(self) -> str:
        row = self.row("title") if self.is_mounted else None
        return row.text() if row is not None else self.draft.title

    def _kept(self) -> Text:
        text = Text()
        for source in self.draft.frontmatter.get("sources") or []:
            if not isinstance(source, dict):
                continue
            if text:
                text.append("\n")
            text.append(f"{'source':<10}", "dim")
            text.append(str(source.get("resource", "")), "bold")
            digest = str(source.get("sha256", ""))
            if digest:
                text.append(f"\n{'sha256':<10}", "dim")
                text.append(f"{digest[:16]}…")
        others = [
            k for k in self.draft.frontmatter if k not in (*FORM_KEYS, "sources", "generated")
        ]
        if others:
            text.append(f"\n{'also kept':<10}", "dim")
            text.append(", ".join(others))
        for note in self.draft.notes:
            text.append(f"\n! {note}", "yellow")
        return text

    def rows(self) -> list[FieldRow]:
        return [r for r in self.query(FieldRow) if r.is_attached]

    def row(self, key: str) -> FieldRow | None:
        return next((r for r in self.rows() if r.key == key), None)

    def invalid(self) -> list[tuple[FieldRow, str]]:
        found = []
        for row in self.rows():
            _, error = row.parse()
            if error or row.error:
                found.append((row, error or row.error or ""))
        return found


# --- the wizard -------------------------------------------------------------------------------


class ImportWizard(KasScreen[None]):
    """Pick files, convert them, review the drafts, write them (see the module docstring)."""

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
        self.types = _by_use(d.type for d in docs)
        self.tags = _by_use(t for d in docs for t in d.tags)

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
                            yield Label("Type (optional)")
                            yield CleanInput(
                                placeholder="inferred for each file",
                                suggester=SuggestFromList(self.types, case_sensitive=False),
                                id="iw-type",
                            )
                    yield Static(Text(f"Converts {FORMATS}.", "dim"), id="iw-formats")
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
                                yield Markdown(id="iw-body", open_links=False)
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
        picker.border_title = Text(f"Files in {self.start}")
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

    # -- step 1: choosing files -------------------------------------------------------

    def select(self, paths: Iterable[Path]) -> None:
        """Add ``paths`` to the selection (what the picker and the paths input do)."""
        for path in paths:
            self.marked[Path(os.path.abspath(path))] = None
        self._refresh_selected()

    def _refresh_selected(self) -> None:
        listed = self.query_one("#iw-selected", SelectedList)
        highlighted = listed.highlighted
        listed.clear_options()
        for number, path in enumerate(self.marked):
            label = Text(self.shown_path(path), "" if supported(path) else "dim")
            label.append(f"  {_size(path)}", "dim")
            if not supported(path):
                label.append("  unknown format: read as text if it is", "yellow")
            listed.add_option(Option(label, id=str(number)))
        if self.marked:
            listed.highlighted = min(highlighted or 0, len(self.marked) - 1)
        count = len(self.marked)
        listed.border_title = f"Selected ({count})" if count else "Selected"
        self.query_one(FilePicker).refresh_marks()
        if self.error:
            return
        _, problem = parse_new_bundle(self.query_one("#iw-new-bundle", CleanInput).value)
        if problem:
            self._files_status(f"New bundle: {problem}", error=True)
            return
        self._files_status(
            "Mark files in the tree (space) or type their paths."
            if not count
            else f"{_plural(count, 'file')} into {self._bundle_name(self._bundle_value())}"
        )

    def _files_status(self, message: str, *, error: bool = False) -> None:
        status = self.query_one("#iw-files-status", Static)
        status.update(Text(message))
        status.set_class(error, "-error")

    def _bundle_value(self) -> str:
        """The target bundle: a valid new one typed, else the one chosen."""
        new, _ = parse_new_bundle(self.query_one("#iw-new-bundle", CleanInput).value)
        if new:
            return new
        value = self.query_one("#iw-bundle", Select).value
        return value if isinstance(value, str) else ""

    @staticmethod
    def _bundle_name(bundle: str) -> str:
        return f"{bundle}/" if bundle else "the package root"

    @on(FilePicker.Toggled)
    def _toggled(self, event: FilePicker.Toggled) -> None:
        event.stop()
        self.error = ""
        if not event.paths:
            self.notify("No file kas-tui can convert in this folder", timeout=3)
            return
        if all(p in self.marked for p in event.paths):
            for path in event.paths:
                self.marked.pop(path, None)
        else:
            for path in event.paths:
                self.marked[path] = None
        self._refresh_selected()

    @on(DirectoryTree.FileSelected, "#iw-picker")
    def _file_chosen(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        picker = self.query_one(FilePicker)
        picker.post_message(FilePicker.Toggled(picker, [Path(os.path.abspath(event.path))], False))

    def action_unselect(self) -> None:
        listed = self.query_one("#iw-selected", SelectedList)
        if listed.highlighted is None or not self.marked:
            return
        path = list(self.marked)[listed.highlighted]
        del self.marked[path]
        self._refresh_selected()

    @on(CleanInput.Submitted, "#iw-paths")
    def _paths_entered(self, event: CleanInput.Submitted) -> None:
        event.stop()
        self._take_typed()

    def _take_typed(self) -> bool:
        """Add the typed paths; ``False`` (with the problems shown) when one is not found."""
        box = self.query_one("#iw-paths", CleanInput)
        if not box.value.strip():
            return True
        found, problems = parse_paths(box.value, self.start)
        self.select(found)
        shown = self.query_one("#iw-paths-error", Static)
        if problems:
            more = f" (and {len(problems) - 2} more)" if len(problems) > 2 else ""
            shown.update(Text("✗ " + "; ".join(problems[:2]) + more))
            shown.display = True
            return False
        shown.display = False
        box.value = ""
        return True

    @on(CleanInput.Changed, "#iw-paths")
    def _paths_typed(self) -> None:
        self.query_one("#iw-paths-error").display = False

    @on(Select.Changed, "#iw-bundle")
    @on(Input.Changed, "#iw-new-bundle")
    def _bundle_changed(self) -> None:
        self._refresh_selected()

    @on(Button.Pressed, "#iw-convert")
    def _convert_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_convert()

    def action_close(self) -> None:
        self.dismiss(None)

    # -- step 2: converting -----------------------------------------------------------

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
                (_plural(len(self.files), "file"), "bold"),
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
        from ...importing import plan_import

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

    # -- step 3: the preview ----------------------------------------------------------

    def _to_write(self) -> list[PlannedImport]:
        return [p for n, p in enumerate(self.plans) if p.writes and n not in self.skipped]

    def _plan_label(self, number: int) -> Text:
        plan = self.plans[number]
        glyph, style = _GLYPHS.get(plan.action, ("?", ""))
        skipped = number in self.skipped or not plan.writes
        text = Text()
        text.append("○ " if skipped else "● ", "bright_black" if skipped else "bold green")
        text.append(f"{glyph} ", style)
        draft = plan.draft
        form = self._form(number)
        if form is not None and form.invalid():
            text.append("! ", "bold red")
        title = draft.title if draft is not None and plan.action == "create" else plan.source.name
        text.append(title, "strike bright_black" if number in self.skipped else "bold")
        text.append("\n    ")
        if plan.action == "create" and draft is not None:
            text.append(f"{plan.source.name} → {draft.slug}.md", "dim")
        elif plan.action == "failed":
            why = plan.message.split(": ", 1)[-1] if plan.message else "not converted"
            text.append(why, "red")
        elif plan.action == "duplicate" and plan.existing:
            text.append(f"already in the package as {plan.existing} · u updates it", "yellow")
        elif plan.action == "update" and plan.existing:
            text.append(f"updates {plan.existing}", "cyan")
        else:
            text.append(plan.message.split(": ", 1)[-1], "dim")
        if number in self.skipped:
            text.append("  (left out)", "bright_black")
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def _relabel(self, number: int) -> None:
        self.query_one("#iw-plans", PlanList).replace_option_prompt_at_index(
            number, self._plan_label(number)
        )

    def _form(self, number: int) -> PlanForm | None:
        forms = self.query_one("#iw-forms", ContentSwitcher)
        found = forms.query(f"#iw-form-{number}")
        return found.first(PlanForm) if found else None

    @on(OptionList.OptionHighlighted, "#iw-plans")
    async def _plan_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        await self._show_plan(int(event.option.id or 0))

    async def _show_plan(self, number: int) -> None:
        if not 0 <= number < len(self.plans):
            return
        self._shown = number
        plan = self.plans[number]
        forms = self.query_one("#iw-forms", ContentSwitcher)
        if plan.action == "create" and plan.draft is not None:
            form = self._form(number)
            if form is None:
                form = PlanForm(number, plan.draft, self.types, self.tags, self.today)
                await forms.mount(form)
                for row in form.rows():
                    row.check(show=True)
            forms.current = form.id
            forms.border_title = "Frontmatter (drafted)"
        else:
            self.query_one("#iw-no-form-text", Static).update(self._no_form(plan))
            forms.current = "iw-no-form"
            forms.border_title = "Frontmatter"
        self._show_where(number)
        if self._body_of != number:
            self._body_of = number
            body = plan.draft.body if plan.draft is not None else ""
            markdown = self.query_one("#iw-body", Markdown)
            if plan.draft is None:
                markdown.update("")
                self.query_one("#iw-body-scroll").display = False
            else:
                self.query_one("#iw-body-scroll").display = True
                markdown.update(_clip_body(body))
            self.query_one("#iw-body-scroll", VerticalScroll).scroll_home(animate=False)

    def _no_form(self, plan: PlannedImport) -> Text:
        if plan.action == "failed":
            return Text.assemble(
                ("✗ ", "bold red"),
                (plan.message or "not converted", "bold"),
                "\n\nNothing is drafted for this file; the other files are imported without it.",
            )
        if plan.action == "update":
            return Text(
                "An update of the existing document: its body and its source record are "
                "replaced from the file; its title, description, type and every other "
                "field the curator wrote are kept.\n\nu: do not update it after all."
            )
        if plan.action == "duplicate" and plan.existing:
            return Text.assemble(
                (plan.message, "yellow"),
                "\n\nu: update ",
                (plan.existing, "bold"),
                " from this file instead (its new body and source record; the "
                "curator's title, description and type are kept).",
            )
        return Text(plan.message or "Nothing to write for this file.")

    def shown_path(self, path: Path) -> str:
        """``path`` as the picker shows it: from where kas-tui started, else from home."""
        try:
            return path.relative_to(self.start).as_posix()
        except ValueError:
            pass
        try:
            return "~/" + path.relative_to(Path.home()).as_posix()
        except (ValueError, RuntimeError):
            return str(path)

    def _show_where(self, number: int) -> None:
        plan = self.plans[number]
        text = Text()
        if plan.action == "create" and plan.draft is not None:
            text.append(plan.draft.path, "bold")
            text.append("  ← ", "dim")
            text.append(self.shown_path(plan.source), "dim")
            if number in self.skipped:
                text.append("\nleft out: space includes it again", "yellow")
            else:
                for index, line in self._entries(plan):
                    text.append("\n")
                    text.append(f"+ {index}  ", "green")
                    text.append(line)
        elif plan.existing:
            text.append(plan.existing, "bold")
            text.append("  ← ", "dim")
            text.append(self.shown_path(plan.source), "dim")
        else:
            text.append(self.shown_path(plan.source), "bold")
        self.query_one("#iw-where", Static).update(text)

    def _entries(self, plan: PlannedImport) -> list[tuple[str, str]]:
        from ...importing import ImportFailed
        from ...importing.importer import planned_entries

        todo = self._to_write()
        try:
            # as the whole import writes them: a new bundle's entry counts all its files
            return planned_entries(self.package, todo if plan in todo else [*todo, plan], plan)
        except (ImportFailed, EditError, FormatError, ValueError, OSError) as exc:
            return [("index.md", f"(the entry cannot be drafted: {exc})")]

    @on(FieldRow.Edited)
    def _field_edited(self, event: FieldRow.Edited) -> None:
        event.stop()
        form = next((a for a in event.row.ancestors if isinstance(a, PlanForm)), None)
        if form is None:
            return
        if event.row.key == "title":
            description = form.row("description")
            if description is not None:
                description.refresh_info()
        if not self._sync_pending:
            self.call_after_refresh(self._sync_forms)
        self._sync_pending.add(form.number)

    def _sync_forms(self) -> None:
        """Carry the forms' valid values into their drafts; show what cannot be."""
        pending, self._sync_pending = self._sync_pending, set()
        for number in pending:
            form = self._form(number)
            if form is None:
                continue
            for row in form.rows():
                value, error = row.parse()
                if error:
                    continue
                if row.key == FILE_KEY:
                    self._rename(form, row, value)
                    continue
                current = form.draft.frontmatter.get(row.key, F.REMOVE)
                if value is current or value == current:
                    continue
                try:
                    set_draft_field(form.draft, row.key, value)
                except (EditError, FormatError, ValueError) as exc:
                    row.show_error(getattr(exc, "message", str(exc)))
            self._relabel(number)
            if number == self._shown:
                self._show_where(number)
        self.error = ""
        self._refresh_summary()

    def _rename(self, form: PlanForm, row: FieldRow, slug: str) -> None:
        """Give the drafted document the file name ``slug``, when it is free."""
        draft = form.draft
        if slug == draft.slug:
            return
        problem = None
        where = f"{draft.bundle}/" if draft.bundle else "the package root"
        on_disk = {name.lower() for name in names_in(self.package.root / draft.bundle)}
        planned = {
            p.draft.slug.lower()
            for n, p in enumerate(self.plans)
            if n != form.number
            and p.action == "create"
            and p.draft is not None
            and p.draft.bundle == draft.bundle
            and n not in self.skipped
        }
        if not draft.bundle and slug in RESERVED_AT_ROOT:
            problem = f"{slug}.md would clash with SKILL.md at the package root"
        elif slug.lower() in on_disk:
            problem = f"{slug} is taken in {where}"
        elif slug.lower() in planned:
            problem = f"another document of this import is named {slug}.md"
        if problem:
            row.show_error(problem)
        else:
            draft.slug = slug

    def _refresh_summary(self) -> None:
        counts = Counter(p.action for p in self.plans)
        writing = self._to_write()
        text = Text()
        if self.error:
            text.append(f"✗ {self.error}", "bold red")
        else:
            parts = []
            for action, label in (
                ("create", "new"),
                ("update", "to update"),
                ("duplicate", "already imported"),
                ("unchanged", "unchanged"),
                ("failed", "failed"),
            ):
                if counts[action]:
                    parts.append(f"{counts[action]} {label}")
            if self.skipped:
                parts.append(f"{len(self.skipped)} left out")
            text.append(" · ".join(parts) or "no files")
            invalid = [n for n in range(len(self.plans)) if (f := self._form(n)) and f.invalid()]
            if invalid:
                text.append(f" · {_plural(len(invalid), 'draft')} with an invalid field", "red")
            elif writing:
                text.append(
                    f" · ctrl+s writes {_plural(len(writing), 'document')} into "
                    f"{self._bundle_name(self.target)}; ctrl+z undoes it all",
                    "dim",
                )
            else:
                text.append(" · nothing to write", "yellow")
        self.query_one("#iw-summary", Static).update(text)
        button = self.query_one("#iw-write", Button)
        button.disabled = not writing
        button.label = f"Import {len(writing)}  ^s" if writing else "Import  ^s"
        self.query_one("#iw-plans").border_title = f"Files ({len(self.plans)})"

    def action_toggle_skip(self) -> None:
        number = self.query_one("#iw-plans", PlanList).highlighted
        if number is None:
            return
        if not self.plans[number].writes:
            self.notify("Nothing is written for this file", timeout=2)
            return
        self.skipped ^= {number}
        self._relabel(number)
        self._show_where(number)
        self._refresh_summary()

    async def action_update_instead(self) -> None:
        from ...importing import confirm_update

        number = self.query_one("#iw-plans", PlanList).highlighted
        if number is None:
            return
        plan = self.plans[number]
        if number in self.originals:
            self.plans[number] = self.originals.pop(number)
        elif plan.action == "duplicate" and plan.existing and plan.draft is not None:
            self.originals[number] = plan
            self.plans[number] = confirm_update(plan)
        else:
            self.notify("Only a file already in the package can update it", timeout=3)
            return
        self.skipped.discard(number)
        self._relabel(number)
        self._body_of = None
        await self._show_plan(number)
        self._refresh_summary()

    def action_diff(self) -> None:
        from ...importing import ImportFailed, preview_import

        if not self._check_forms():
            return
        try:
            diff = preview_import(self.package, self._to_write())
        except (ImportFailed, EditError, FormatError, ValueError, OSError) as exc:
            self._refuse(str(exc))
            return

        def decided(write: bool | None) -> None:
            if write:
                self.action_write()

        self.app.push_screen(DiffScreen("What the import writes", diff, confirm="Import"), decided)

    def _check_forms(self) -> bool:
        """Whether every draft to write is valid (else the first invalid field is shown)."""
        self._sync_forms()
        for number, _plan in enumerate(self.plans):
            form = self._form(number)
            if number in self.skipped or form is None:
                continue
            invalid = form.invalid()
            if invalid:
                for row, _ in invalid:
                    row.check(show=True)
                self.query_one("#iw-plans", PlanList).highlighted = number
                row, error = invalid[0]
                self.call_after_refresh(row.focus_editor)
                self._refuse(f"{form.draft.converted.name}: {row.key}: {error}")
                return False
        return True

    def _refuse(self, message: str) -> None:
        self.error = message
        self._refresh_summary()

    @on(Button.Pressed, "#iw-write")
    def _write_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_write()

    @on(Button.Pressed, "#iw-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_write(self) -> None:
        from ...importing import ImportFailed, write_import

        if not self._check_forms():
            return
        todo = self._to_write()
        if not todo:
            self.notify("Nothing to import", timeout=2)
            return
        app = self.kas
        refused: list[str] = []

        def edit(pkg: Package) -> Any:
            try:
                return write_import(pkg, todo, today=self.today, log=app.session.log_edits)
            except ImportFailed as exc:
                if exc.conflict is not None:  # an index changed since the wizard opened
                    raise exc.conflict from None
                refused.append(str(exc))
                raise EditError(str(exc)) from None

        label = f"import {_plural(len(todo), 'file')} into {self._bundle_name(self.target)}"

        self._first = next((p.path for p in todo if p.path), None)
        outcome = app.run_edit(label, edit, based_on=self._base)
        if outcome.saved:
            self._written(outcome)
            return
        self._refuse(
            (refused[0] if refused else "not written (see the message)")
            + " · your edits are kept; ctrl+s tries again"
        )

    def on_edit_decided(self, message: EditDecided) -> None:
        self._written(message.outcome)  # after the conflict's "save on top"

    def _written(self, outcome: EditOutcome) -> None:
        if not outcome.saved or self.step == "done":
            return
        self.step = "done"
        self.dismiss(None)
        if self._first is not None and self._first in self.kas.package.documents:
            self.kas.go(self._first, reveal=True)

    def action_cancel(self) -> None:
        if not self._to_write():
            self.dismiss(None)
            return

        def back_to_files() -> None:
            self._go("files")
            self.query_one(FilePicker).focus()

        ask_unsaved(
            self.app,
            f"{_plural(len(self._to_write()), 'drafted document')} and your edits to them "
            "are not written yet: save imports them, discard cancels the import.",
            save=self.action_write,
            discard=lambda: self.dismiss(None),
            others=[("files", "Back to the files", "b", back_to_files)],
        )

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        if re.match(r"^[a-zA-Z][\w+.-]*:", event.href):
            self.app.open_url(event.href)

    def on_unmount(self) -> None:
        self._stop.set()  # a conversion still running stops and reports nothing


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


__all__ = ["ImportWizard", "open_import_wizard", "parse_paths", "set_draft_field"]
