"""The editing session: actions grouped for undo, each logged in log.md."""

from __future__ import annotations

import datetime as dt

import pytest

from kas_tui.core import editing
from kas_tui.core.edit_session import EditSession
from kas_tui.core.package import Package
from kas_tui.core.store import ConflictError
from tests.helpers.acme import make_package

TODAY = dt.date(2026, 11, 30)


def _files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_an_action_with_two_writes_and_its_log_entry_undoes_as_one(tmp_path):
    root = make_package(tmp_path)
    pkg = Package.open(root)
    doc = next(iter(pkg.documents))
    before = _files(root)
    session = EditSession(pkg, today=TODAY)

    def edit(p):
        editing.set_field(p, doc, "status", "deprecated")
        editing.set_field(p, doc, "title", "Retired page")

    action = session.run("deprecate a page", edit, log=f"deprecated {doc}")
    assert action is not None and len(action.changes) == 3  # two edits and log.md
    assert f"deprecated {doc}" in (root / "log.md").read_text()
    assert pkg.documents[doc].status == "deprecated"
    assert session.undo() is action
    assert _files(root) == before
    assert pkg.documents[doc].status != "deprecated"
    assert session.redo() is action
    assert pkg.documents[doc].title == "Retired page"
    assert "deprecated" in (root / "log.md").read_text()


def test_nothing_changed_is_no_action_and_no_log(tmp_path):
    root = make_package(tmp_path)
    pkg = Package.open(root)
    doc = next(iter(pkg.documents))
    title = pkg.documents[doc].title
    before = _files(root)
    session = EditSession(pkg, today=TODAY)
    assert session.run("same title", lambda p: editing.set_field(p, doc, "title", title)) is None
    assert not session.can_undo and _files(root) == before


def test_logging_can_be_turned_off(tmp_path):
    root = make_package(tmp_path)
    pkg = Package.open(root)
    doc = next(iter(pkg.documents))
    log_before = (root / "log.md").read_bytes() if (root / "log.md").exists() else None
    session = EditSession(pkg, log_edits=False, today=TODAY)
    action = session.run("retitle", lambda p: editing.set_field(p, doc, "title", "New"))
    assert action is not None and len(action.changes) == 1
    log_after = (root / "log.md").read_bytes() if (root / "log.md").exists() else None
    assert log_after == log_before


def test_a_refused_undo_leaves_the_action_whole(tmp_path):
    root = make_package(tmp_path)
    pkg = Package.open(root)
    doc = next(iter(pkg.documents))
    session = EditSession(pkg, today=TODAY)
    session.run("retitle", lambda p: editing.set_field(p, doc, "title", "New"))
    log = root / "log.md"
    (root / doc).write_text((root / doc).read_text() + "\nEdited elsewhere.\n")
    log_text = log.read_text()
    with pytest.raises(ConflictError):
        session.undo()  # the log entry is undone first, then the document refuses
    assert log.read_text() == log_text, "the undone log entry was put back"
    assert session.can_undo and not session.can_redo
    assert "Edited elsewhere." in (root / doc).read_text()


def test_a_failing_edit_keeps_what_it_wrote_undoable(tmp_path):
    root = make_package(tmp_path)
    pkg = Package.open(root)
    docs = sorted(pkg.documents)
    session = EditSession(pkg, today=TODAY)

    def edit(p):
        editing.set_field(p, docs[0], "title", "First")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        session.run("two titles", edit)
    assert session.can_undo
    session.undo()
    assert pkg.documents[docs[0]].title != "First"


def test_an_unwritable_log_is_reported_not_silently_skipped(tmp_path):
    root = make_package(tmp_path)
    pkg = Package.open(root)
    doc = next(iter(pkg.documents))
    (root / "log.md").unlink(missing_ok=True)
    (root / "log.md").mkdir()  # log.md cannot be written as a file
    session = EditSession(pkg, today=TODAY)
    action = session.run("retitle", lambda p: editing.set_field(p, doc, "title", "New"))
    assert action is not None and len(action.changes) == 1
    assert action.log_error.startswith("log.md not updated")
    assert pkg.documents[doc].title == "New"
