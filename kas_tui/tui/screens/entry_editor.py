"""Edit one index entry in place: its title, its description, and the document's beside it.

The entry is one line of one ``index.md``; saving rewrites that line only
(:func:`kas_tui.core.editing.set_entry`). For an entry that lists a document, the document's
own ``description`` sits under the entry's, both editable, with the checker's drift
verdict between them (:func:`kas_tui.text.description_verdicts.drifted`) and a key to copy either into the
other. One save is one undoable action, logged in ``log.md``, written through
``app.run_edit``; a refused save keeps the screen open with the user's text.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Focus, Paste
from textual.widgets import Button, Input, Label, Static, TextArea

from kas_tui.core.editing import set_entry, set_field
from kas_tui.core.okf.text import control_chars
from kas_tui.text.description_verdicts import (
    LONG_DESCRIPTION,
    drifted,
    more_than_one_sentence,
    says_nothing,
)
from kas_tui.text.folder_summary import description_limit
from kas_tui.text.tokens import estimate_tokens
from kas_tui.tui.edit_outcome import EditDecided, EditOutcome, close_after_save
from kas_tui.tui.screens.choose import ask_before_leaving
from kas_tui.tui.screens.kas_screen import KasModalScreen
from kas_tui.tui.widgets.inputs import FieldInput

if TYPE_CHECKING:
    from textual.app import App

    from kas_tui.core.fileio import Fingerprint
    from kas_tui.core.package import Package
    from kas_tui.core.records import Listing

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class WrappingArea(TextArea):
    """A soft-wrapping TextArea that repaints whole after a resize.

    TextArea re-wraps on resize but repaints only what its virtual size says changed;
    when the width moves and back (a scrollbar appearing for a moment while a form is
    laid out) a line wrapped at the old width can stay on screen.
    """

    def on_resize(self) -> None:
        self.call_later(self.refresh)  # after TextArea's own resize handler re-wrapped


class OneLineArea(WrappingArea):
    """A wrapping one-line text field: enter moves on, pasted line breaks become spaces.

    Control characters are kept as pasted so that the screen can refuse them with a
    message instead of dropping them silently.
    """

    BINDINGS = [Binding("enter", "next_field", "Next field", show=False, priority=True)]

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(text, soft_wrap=True, tab_behavior="focus", **kwargs)

    def action_next_field(self) -> None:
        self.screen.focus_next()

    def _on_focus(self, event: Focus) -> None:
        if not event.from_app_focus:  # arriving by Tab: go on at the end (a click moves it)
            self.move_cursor(self.document.end)

    async def _on_paste(self, event: Paste) -> None:  # replaces TextArea's own handler
        event.prevent_default()
        event.stop()
        if self.read_only:
            return
        result = self.replace(_LINE_BREAK.sub(" ", event.text), *self.selection)
        self.move_cursor(result.end_location)


def text_problem(value: str, *, one_line: bool = True) -> str | None:
    """Why ``value`` cannot be written into a metadata line, or ``None``."""
    bad = control_chars(value)
    if bad:
        shown = ", ".join(repr(c) for c in dict.fromkeys(bad[:3]))
        return f"Contains control characters ({shown}), e.g. a pasted terminal escape: remove them"
    if one_line and _LINE_BREAK.search(value):
        return "Must be one line: remove the line breaks"
    return None


def description_note(value: str, title: str = "", limit: int = LONG_DESCRIPTION) -> Text:
    """The live count and the checker's hints for an index or document description
    (``limit``: the characters it may take, ``folder_summary.description_limit``)."""
    desc = value.strip()
    note = Text()
    count = len(desc)
    note.append(f"{count:,} character{'s' if count != 1 else ''}", "dim")
    note.append(f" · ~{estimate_tokens(desc):,} tokens", "dim")
    problem = text_problem(value)
    if problem:
        note.append("\n✗ " + problem, "bold red")
        return note
    if not desc:
        note.append("\n! Empty: an agent choosing a path has nothing to go on", "yellow")
    elif says_nothing(desc, title):
        note.append(
            "\n! Says nothing an agent can choose by: name what it covers and when to read it",
            "yellow",
        )
    if count > limit:
        note.append(
            f"\n! Long for one line of an index ({count:,} > {limit}): "
            "every agent that reads the index pays for it",
            "yellow",
        )
    elif desc and more_than_one_sentence(desc):
        note.append("\n! More than one sentence: an index entry says one thing", "yellow")
    return note


def drift_note(entry: str, document: str) -> Text:
    """Whether the entry's and the document's descriptions agree, as one line."""
    entry, document = entry.strip(), document.strip()
    if not document:
        return Text("  The document has no description yet", "yellow")
    if entry == document:
        return Text("= The entry and the document say the same", "green")
    if drifted(entry, document):
        return Text("≠ Drifted: the entry says something else than the document", "bold yellow")
    return Text("≈ Worded differently, same meaning", "dim")


class EntryEditor(KasModalScreen[bool]):
    """The index entry form; dismisses ``True`` when saved, ``False`` when closed."""

    CSS_PATH = "entry_editor.tcss"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "close", "Close"),
        Binding("ctrl+g", "use_document", "Use the document's"),
        Binding("ctrl+t", "to_document", "Copy to the document"),
    ]

    def __init__(self, listing: Listing) -> None:
        super().__init__()
        self.listing = listing
        self._baseline = ("", "", "")  # title, entry description, document description
        self._refused: tuple[str, str, str] | None = None  # the values a save refused
        #: the files as the editor opened them: a save over a later change is a conflict
        self._base: dict[str, Fingerprint] = {}

    # -- model ----------------------------------------------------------------------

    @property
    def package(self) -> Package:
        return self.kas.package

    @property
    def doc_path(self) -> str | None:
        """The document the entry lists (``None`` for a bundle, a missing file, ...)."""
        return self.listing.path if self.listing.kind == "document" else None

    def _document_description(self, package: Package | None = None) -> str:
        pkg = package or self.package
        doc = pkg.documents.get(self.doc_path) if self.doc_path else None
        return doc.description if doc is not None else ""

    def _load_baseline(self) -> None:
        entry = self.listing.entry
        self._baseline = (entry.title, entry.description, self._document_description())

    def _current(self) -> Listing | None:
        """This entry in the package as it is now (lines move when the file changes)."""
        folder = posixpath.dirname(self.listing.index)
        index_file = self.package.indexes.get(folder)
        if index_file is None:
            return None
        target = self.listing.entry.target
        same = [item for item in index_file.listings if item.entry.target == target]
        for item in same:
            if item.entry.line == self.listing.entry.line:
                return item
        return same[0] if len(same) == 1 else None

    # -- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self._load_baseline()
        listing = self.listing
        with Vertical(id="entry-box") as box:
            box.border_title = Text("Index entry")
            box.border_subtitle = Text(
                "ctrl+s save · ctrl+g use the document's · ctrl+t copy to the document · esc close"
                if self.doc_path
                else "ctrl+s save · esc close"
            )
            where = Text.assemble(
                (listing.index, "bold"),
                (f" · line {listing.entry.line}  →  ", "dim"),
                (listing.path or listing.entry.target, ""),
                (f"  ({listing.kind})", "dim"),
            )
            yield Static(where, id="entry-where")
            with Horizontal(classes="entry-row"):
                yield Label("Title", id="entry-title-label", classes="entry-label")
                with Vertical(classes="entry-field"):
                    yield FieldInput(self.listing.entry.title, id="entry-title")
                    yield Static(id="entry-title-note", classes="entry-note")
            with Horizontal(classes="entry-row"):
                yield Label("Description", id="entry-desc-label", classes="entry-label")
                with Vertical(classes="entry-field"):
                    yield OneLineArea(self.listing.entry.description, id="entry-desc")
                    yield Static(id="entry-desc-note", classes="entry-note")
            if self.doc_path:
                with Horizontal(classes="entry-row", id="entry-drift-row"):
                    yield Label("", classes="entry-label")
                    with Vertical(classes="entry-field"):
                        yield Static(id="entry-drift")
                        with Horizontal(id="entry-copy"):
                            yield Button(
                                "↑ Use the document's ^g", id="entry-use-doc", compact=True
                            )
                            yield Button(
                                "↓ Copy to the document ^t", id="entry-to-doc", compact=True
                            )
                with Horizontal(classes="entry-row"):
                    yield Label("In document", id="entry-doc-label", classes="entry-label")
                    with Vertical(classes="entry-field"):
                        yield OneLineArea(self._baseline[2], id="entry-doc-desc")
                        yield Static(id="entry-doc-note", classes="entry-note")
            else:
                yield Static(self._no_document_note(), id="entry-no-doc")
            yield Static(id="entry-error")
            with Horizontal(id="entry-buttons"):
                yield Static(id="modal-notice")
                yield Button("Save ^s", id="entry-save", variant="primary", compact=True)
                yield Button("Cancel esc", id="entry-cancel", compact=True)

    def _no_document_note(self) -> Text:
        kind = self.listing.kind
        if kind == "bundle":
            why = "A bundle: its own index.md has no description to compare with."
        elif kind in ("missing", "outside"):
            why = f"The target is {kind}: there is no document to compare with."
        else:
            why = f"The target is {'an ' if kind[0] in 'aeiou' else 'a '}{kind}, not a document."
        return Text(why, "dim")

    def on_mount(self) -> None:
        for rel in (self.listing.index, self.doc_path):
            found = self.package.fingerprint(rel) if rel else None
            if found is not None:
                self._base[rel] = found
        self.query_one("#entry-error").display = False
        self._refresh()
        desc = self.query_one("#entry-desc", OneLineArea)
        desc.focus()
        self.call_after_refresh(desc.move_cursor, desc.document.end)

    # -- state ----------------------------------------------------------------------

    def values(self) -> tuple[str, str, str]:
        """What the fields say now: title, entry description, document description."""
        title = self.query_one("#entry-title", Input).value
        desc = self.query_one("#entry-desc", OneLineArea).text
        doc = self.query_one("#entry-doc-desc", OneLineArea).text if self.doc_path else ""
        return title, desc, doc

    def _changed(self) -> tuple[bool, bool, bool]:
        title, desc, doc = self.values()
        base_title, base_desc, base_doc = self._baseline
        return (
            title.strip() != base_title,
            desc.strip() != base_desc.strip(),
            bool(self.doc_path) and doc.strip() != base_doc.strip(),
        )

    @property
    def dirty(self) -> bool:
        """Whether the form holds changes that are not saved."""
        if not self.is_mounted:
            return False
        return any(self._changed())

    def _problems(self) -> dict[str, str]:
        """Field id -> why it cannot be saved."""
        title, desc, doc = self.values()
        problems = {}
        if not title.strip():
            problems["entry-title"] = "The title cannot be empty: it is the link an agent sees"
        elif problem := text_problem(title):
            problems["entry-title"] = problem
        if problem := text_problem(desc):
            problems["entry-desc"] = problem
        if self.doc_path and (problem := text_problem(doc)):
            problems["entry-doc-desc"] = problem
        return problems

    def _refresh(self) -> None:
        """Counts, hints, drift and the unsaved marks, from the fields."""
        title, desc, doc = self.values()
        problems = self._problems()
        title_note = self.query_one("#entry-title-note", Static)
        if "entry-title" in problems:
            title_note.update(Text("✗ " + problems["entry-title"], "bold red"))
        else:
            title_note.update(Text(f"{len(title.strip()):,} characters", "dim"))
        index = self.package.indexes.get(posixpath.dirname(self.listing.index))
        limit = description_limit(
            self.listing.kind == "bundle", index.own_listings("bundle") if index is not None else 1
        )
        self.query_one("#entry-desc-note", Static).update(
            description_note(desc, title.strip(), limit)
        )
        if self.doc_path:
            self.query_one("#entry-doc-note", Static).update(
                Text(f"description in {self.doc_path} · ", "dim")
                + description_note(doc, title.strip())
            )
            self.query_one("#entry-drift", Static).update(drift_note(desc, doc))
        changed = self._changed()
        labels = ("#entry-title-label", "#entry-desc-label", "#entry-doc-label")
        for label_id, was_changed in zip(labels, changed, strict=True):
            if self.doc_path or label_id != "#entry-doc-label":
                self.query_one(label_id).set_class(was_changed, "-modified")
        box = self.query_one("#entry-box")
        box.border_title = Text.assemble(
            "Index entry", ("  ● unsaved", "bold yellow") if any(changed) else ""
        )

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _edited(self, event: Any) -> None:
        event.stop()
        if self.values() != self._refused:  # the refusal was about other text
            self.query_one("#entry-error").display = False
        self._refresh()

    # -- actions --------------------------------------------------------------------

    @on(Button.Pressed, "#entry-save")
    def action_save(self) -> None:
        problems = self._problems()
        if problems:
            self._refresh()
            self.query_one(f"#{next(iter(problems))}").focus()
            self.app.bell()
            return
        if not self.dirty:
            self.dismiss(False)
            return
        current = self._current()
        if current is None:
            self._error(f"The entry is no longer in {self.listing.index}; nothing was written")
            return
        self.listing = current
        title, desc, doc = (v.strip() for v in self.values())
        title_changed, desc_changed, doc_changed = self._changed()
        index_rel, line, doc_path = current.index, current.entry.line, self.doc_path
        failure: list[str] = []

        def edit(pkg: Package) -> list[Any]:
            changes = []
            try:
                if title_changed or desc_changed:
                    changes.append(
                        set_entry(
                            pkg,
                            index_rel,
                            line,
                            title=title if title_changed else None,
                            description=desc if desc_changed else None,
                        )
                    )
                if doc_changed and doc_path:
                    changes.append(set_field(pkg, doc_path, "description", doc))
            except Exception as exc:
                failure.append(str(exc))
                raise
            return changes

        shown = current.entry.title
        what = [index_rel] if title_changed or desc_changed else []
        what += [doc_path] if doc_changed and doc_path else []
        label = f"edit the entry {shown!r} ({', '.join(what)})"
        log = f"Edited the index entry {title!r} in {index_rel}."
        if doc_changed:
            log = (
                f"Edited the description of {doc_path}."
                if not (title_changed or desc_changed)
                else log[:-1] + f" and the description of {doc_path}."
            )
        outcome = self.kas.run_edit(label, edit, log=log, based_on=self._base)
        if not outcome.saved and failure:
            self._error(f"Not saved: {failure[0]}")
        self._after_save(outcome)

    def on_edit_decided(self, message: EditDecided) -> None:
        self._after_save(message.outcome)

    def _after_save(self, outcome: EditOutcome) -> None:
        if close_after_save(self, outcome):
            return
        if outcome is EditOutcome.KEPT:
            # the fields keep the user's text, compared with what the editor opened on,
            # so a field the user did not touch is never written over a change another
            # program made; the entry's line is looked up again at the next save
            self._refresh()

    def _error(self, message: str) -> None:
        self._refused = self.values()
        shown = self.query_one("#entry-error", Static)
        shown.update(Text("✗ " + message, "bold red"))
        shown.display = True

    @on(Button.Pressed, "#entry-use-doc")
    def action_use_document(self) -> None:
        """Put the document's description into the entry's field (saved with ctrl+s)."""
        if not self.doc_path:
            return
        doc = self.query_one("#entry-doc-desc", OneLineArea).text.strip()
        if not doc:
            self.notify("The document has no description to copy", severity="warning")
            return
        _put(self.query_one("#entry-desc", OneLineArea), doc)
        self._refresh()

    @on(Button.Pressed, "#entry-to-doc")
    def action_to_document(self) -> None:
        """Put the entry's description into the document's field (saved with ctrl+s)."""
        if not self.doc_path:
            return
        desc = self.query_one("#entry-desc", OneLineArea).text.strip()
        if not desc:
            self.notify("The entry has no description to copy", severity="warning")
            return
        _put(self.query_one("#entry-doc-desc", OneLineArea), desc)
        self._refresh()

    @on(Button.Pressed, "#entry-cancel")
    def action_close(self) -> None:
        ask_before_leaving(self, "This entry", self.action_save)


def _put(area: TextArea, text: str) -> None:
    """Replace a field's text as one edit the field's own undo (ctrl+z) can take back."""
    area.replace(text, area.document.start, area.document.end)
    area.focus()


def open_entry_editor(app: App, listing: Listing) -> None:
    """Open the editor of the index entry ``listing`` (one line of ``listing.index``)."""
    app.push_screen(EntryEditor(listing))
