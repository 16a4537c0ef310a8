"""Writing: atomic replace, conflicts, undo/redo, and the editing API on a real package."""

from __future__ import annotations

import datetime as dt
import errno
import os
import stat
import tempfile
from pathlib import Path

import pytest

from kas_tui.core import editing as ed
from kas_tui.core import store as store_mod
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import EditError
from kas_tui.core.package import Package
from kas_tui.core.store import ConflictError, Fingerprint, Store, StoreError, read_bytes
from tests.helpers.acme import FILES, make_package, snapshot


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if "kas-tmp" in p.name)


def old_mtime(path: Path) -> int:
    """Set ``path``'s mtime two days back (so a rewrite is visible) and return it."""
    past = path.stat().st_mtime_ns - 2 * 86400 * 10**9
    os.utime(path, ns=(past, past))
    return past


# --- Store -------------------------------------------------------------------------------


def test_apply_writes_atomically_keeping_the_mode(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"---\ntype: Note\n---\nold\n")
    path.chmod(0o640)
    store = Store()
    change = store.apply(path, lambda text: text.replace("old", "new"), label="edit")
    assert path.read_bytes() == b"---\ntype: Note\n---\nnew\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.md"]
    assert change.before == b"---\ntype: Note\n---\nold\n"
    assert change.after == b"---\ntype: Note\n---\nnew\n"
    assert change.label == "edit"
    assert store.undo_stack == [change]
    assert store.redo_stack == []


def test_unchanged_transform_writes_nothing(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"\xef\xbb\xbfsame\r\n")
    mtime = old_mtime(path)
    store = Store()
    assert store.apply(path, lambda text: text) is None
    assert path.stat().st_mtime_ns == mtime
    assert path.read_bytes() == b"\xef\xbb\xbfsame\r\n"
    assert store.undo_stack == []


def test_bom_is_removed_for_the_transform_and_put_back(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"\xef\xbb\xbfa\r\n")
    seen = []

    def transform(text):
        seen.append(text)
        return text + "b\r\n"

    Store().apply(path, transform)
    assert seen == ["a\r\n"]
    assert path.read_bytes() == b"\xef\xbb\xbfa\r\nb\r\n"


def test_conflict_when_the_file_changed_after_it_was_read(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"mine\n")
    _, fingerprint = read_bytes(path)
    path.write_bytes(b"the other program's bytes\n")
    store = Store()
    with pytest.raises(ConflictError, match="changed on disk"):
        store.apply(path, lambda text: "overwrite\n", expect=fingerprint)
    assert path.read_bytes() == b"the other program's bytes\n"
    assert leftovers(tmp_path) == []
    assert store.undo_stack == []


def test_conflict_without_digest_uses_size_and_mtime(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"mine\n")
    st = path.stat()
    fingerprint = Fingerprint(st.st_size, st.st_mtime_ns)  # a head-only read has no digest
    assert Store().apply(path, lambda text: "v2\n", expect=fingerprint) is not None
    with pytest.raises(ConflictError):
        Store().apply(path, lambda text: "v3\n", expect=fingerprint)
    assert path.read_bytes() == b"v2\n"


def test_conflict_when_the_file_changes_during_the_transform(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"mine\n")

    def racing(text):
        path.write_bytes(b"written meanwhile\n")
        return "mine, edited\n"

    with pytest.raises(ConflictError):
        Store().apply(path, racing)
    assert path.read_bytes() == b"written meanwhile\n"
    assert leftovers(tmp_path) == []


def test_conflict_when_the_file_was_deleted(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"mine\n")
    _, fingerprint = read_bytes(path)
    path.unlink()
    with pytest.raises(ConflictError, match="no longer exists"):
        Store().apply(path, lambda text: "x\n", expect=fingerprint)
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_create(tmp_path):
    path = tmp_path / "new.md"
    store = Store()
    received = []
    change = store.apply(path, lambda text: received.append(text) or "created\n", create=True)
    assert received == [None]
    assert path.read_bytes() == b"created\n"
    assert change.before is None
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask


def test_read_only_folder_is_a_store_error(tmp_path, monkeypatch):
    path = tmp_path / "doc.md"
    path.write_bytes(b"mine\n")

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(StoreError) as info:
        Store().apply(path, lambda text: "x\n")
    assert not isinstance(info.value, ConflictError)
    assert "permission denied (the file or its folder is read-only)" in str(info.value)
    assert str(tmp_path) in str(info.value)
    assert path.read_bytes() == b"mine\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_chmod(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "doc.md"
    path.write_bytes(b"mine\n")
    folder.chmod(0o555)
    try:
        with pytest.raises(StoreError, match="permission denied"):
            Store().apply(path, lambda text: "x\n")
        assert path.read_bytes() == b"mine\n"
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize(
    ("code", "words"),
    [(errno.EROFS, "the file system is read-only"), (errno.ENOSPC, "the disk is full")],
)
def test_failed_rename_leaves_the_file_and_no_temporary(tmp_path, monkeypatch, code, words):
    path = tmp_path / "doc.md"
    path.write_bytes(b"mine\n")

    def fail(src, dst):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(store_mod.os, "replace", fail)
    with pytest.raises(StoreError, match=words):
        Store().apply(path, lambda text: "x\n")
    assert path.read_bytes() == b"mine\n"
    assert leftovers(tmp_path) == []


def test_binary_file_is_not_edited(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"\x00\x01")
    with pytest.raises(StoreError, match="cannot edit"):
        Store().apply(path, lambda text: "x")
    assert path.read_bytes() == b"\x00\x01"


def test_write_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "real.md"
    real.write_bytes(b"a\n")
    link = tmp_path / "link.md"
    link.symlink_to("real.md")
    Store().apply(link, lambda text: "b\n")
    assert link.is_symlink()
    assert real.read_bytes() == b"b\n"


def test_undo_redo_restore_exact_bytes(tmp_path):
    path = tmp_path / "doc.md"
    v1 = b"\xef\xbb\xbfv1\r\n"
    path.write_bytes(v1)
    store = Store()
    first = store.apply(path, lambda text: "v2\r\n")
    second = store.apply(path, lambda text: "v3\r\n")
    assert path.read_bytes() == b"\xef\xbb\xbfv3\r\n"
    assert store.undo() is second
    assert path.read_bytes() == b"\xef\xbb\xbfv2\r\n"
    assert store.undo() is first
    assert path.read_bytes() == v1
    assert store.undo() is None
    assert store.redo() is first
    assert path.read_bytes() == b"\xef\xbb\xbfv2\r\n"
    assert store.redo() is second
    assert path.read_bytes() == b"\xef\xbb\xbfv3\r\n"
    assert store.redo() is None
    assert leftovers(tmp_path) == []


def test_a_new_write_clears_redo(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"v1\n")
    store = Store()
    store.apply(path, lambda text: "v2\n")
    store.undo()
    store.apply(path, lambda text: "v2b\n")
    assert store.redo_stack == []
    assert store.redo() is None


def test_undo_refused_when_the_file_changed_since(tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"v1\n")
    store = Store()
    store.apply(path, lambda text: "v2\n")
    path.write_bytes(b"someone else\n")
    with pytest.raises(ConflictError, match="undo would overwrite"):
        store.undo()
    assert path.read_bytes() == b"someone else\n"
    assert len(store.undo_stack) == 1  # still there to retry


def test_undo_of_a_creation_removes_the_file_and_redo_recreates_it(tmp_path):
    path = tmp_path / "new.md"
    store = Store()
    store.apply(path, lambda text: "hello\n", create=True)
    store.undo()
    assert not path.exists()
    store.redo()
    assert path.read_bytes() == b"hello\n"


def test_create_refused_when_another_program_created_the_file(tmp_path):
    path = tmp_path / "new.md"

    def racing(text):
        path.write_bytes(b"theirs\n")
        return "mine\n"

    with pytest.raises(ConflictError, match="created on disk"):
        Store().apply(path, racing, create=True)
    assert path.read_bytes() == b"theirs\n"


# --- editing on the fixture package ---------------------------------------------------------


@pytest.fixture
def pkg(package_root: Path) -> Package:
    return Package.open(package_root)


def only_change(root: Path, before: dict, rel: str) -> bytes:
    """Assert that ``rel`` is the only file whose bytes changed; return its bytes."""
    after = snapshot(root)
    changed = sorted(
        k
        for k in set(before) | set(after)
        if before.get(k, (None, None))[:2] != after.get(k, (None, None))[:2]
    )
    assert changed == [rel]
    return (root / rel).read_bytes()


def test_set_field(pkg, package_root):
    before = snapshot(package_root)
    change = ed.set_field(pkg, "glossary.md", "title", "Acme glossary")
    data = only_change(package_root, before, "glossary.md")
    assert data == FILES["glossary.md"].replace("title: Glossary", "title: Acme glossary").encode()
    assert change.label == "set title in glossary.md"
    assert pkg.documents["glossary.md"].title == "Acme glossary"  # model refreshed


def test_set_field_appends_a_verification(pkg, package_root):
    rel = "incidents/incident-response.md"
    verified = pkg.documents[rel].meta["verified"] + [
        {"by": "human:kim", "at": dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.timezone.utc)}
    ]
    ed.set_field(pkg, rel, "verified", verified)
    assert (package_root / rel).read_text() == FILES[rel].replace(
        "  - { by: process:docs-sync, at: 2026-09-23T02:00:00Z }\n",
        "  - { by: process:docs-sync, at: 2026-09-23T02:00:00Z }\n"
        "  - { by: human:kim, at: 2026-11-30T09:00:00Z }\n",
    )
    assert pkg.documents[rel].trust_tier == "human-reviewed"


def test_set_field_adds_a_tag_keeping_the_comment(pkg, package_root):
    rel = "incidents/incident-response.md"
    ed.set_field(pkg, rel, "tags", ["incidents", "response", "sev1"])
    assert (package_root / rel).read_text() == FILES[rel].replace(
        "  - response\n", "  - response\n  - sev1\n"
    )


def test_set_field_to_the_same_value_writes_nothing(pkg, package_root):
    before = snapshot(package_root)
    assert ed.set_field(pkg, "glossary.md", "title", "Glossary") is None
    assert ed.remove_field(pkg, "glossary.md", "no-such-key") is None
    assert snapshot(package_root) == before
    assert pkg.store.undo_stack == []


def test_remove_field(pkg, package_root):
    rel = "incidents/incident-response.md"
    before = snapshot(package_root)
    ed.remove_field(pkg, rel, "owner")
    assert (
        only_change(package_root, before, rel)
        == FILES[rel].replace("owner: team:sre\n", "").encode()
    )
    assert "owner" not in pkg.documents[rel].meta


def test_set_skill_description(pkg, package_root):
    before = snapshot(package_root)
    ed.set_skill_description(pkg, "  Acme handbook. Use when answering Acme questions.  ")
    data = only_change(package_root, before, "SKILL.md").decode()
    old = FILES["SKILL.md"].replace("{name}", "acme-kb")
    old_line = next(line for line in old.split("\n") if line.startswith("description:"))
    assert data == old.replace(
        old_line, "description: Acme handbook. Use when answering Acme questions."
    )
    assert pkg.skill.description == "Acme handbook. Use when answering Acme questions."
    with pytest.raises(EditError, match="cannot be empty"):
        ed.set_skill_description(pkg, "   ")


def test_set_entry(pkg, package_root):
    before = snapshot(package_root)
    ed.set_entry(pkg, "incidents/index.md", 3, description="SEV1 to SEV4.")
    data = only_change(package_root, before, "incidents/index.md").decode()
    assert data == FILES["incidents/index.md"].replace(
        "- Definitions of SEV1 to SEV4 with the customer impact that triggers each level.",
        "- SEV1 to SEV4.",
    )
    assert pkg.listings("incidents")[0].entry.description == "SEV1 to SEV4."


def test_add_entry_relative_style(pkg, package_root):
    ed.add_entry(pkg, "incidents", "billing/chargebacks.md", section="Triage")
    assert (package_root / "incidents/index.md").read_text() == FILES["incidents/index.md"].replace(
        "triggers each level.\n",
        "triggers each level.\n"
        "* [Chargebacks](../billing/chargebacks.md) - What to do when a customer's bank reverses"
        " a payment.\n",
    )
    assert pkg.listed_by("billing/chargebacks.md") == ["incidents/index.md"]
    assert pkg.unlisted() == []


def test_add_entry_rooted_style(pkg, package_root):
    ed.add_entry(pkg, "billing", "billing/chargebacks.md", title="Chargebacks [draft]")
    assert (package_root / "billing/index.md").read_text() == FILES["billing/index.md"] + (
        "- [Chargebacks \\[draft\\]](/billing/chargebacks.md) - What to do when a customer's bank"
        " reverses a payment.\n"
    )
    assert pkg.listings("billing")[-1].kind == "document"


def test_add_entry_sub_bundle(pkg, package_root):
    ed.add_entry(pkg, "", "incidents/postmortems", description="Postmortems of past incidents.")
    assert (package_root / "index.md").read_text() == FILES["index.md"] + (
        "* [Postmortems](incidents/postmortems/) - Postmortems of past incidents.\n"
    )
    ed.add_entry(pkg, "billing", "incidents/postmortems", description="Outage refunds.")
    assert (
        (package_root / "billing/index.md")
        .read_text()
        .endswith("- [Postmortems](/incidents/postmortems/) - Outage refunds.\n")
    )
    assert sorted(pkg.listed_by("incidents/postmortems")) == [
        "billing/index.md",
        "incidents/index.md",
        "index.md",
    ]


def test_add_entry_creates_a_missing_index(tmp_path):
    root = make_package(tmp_path)
    (root / "incidents/postmortems/index.md").unlink()
    pkg = Package.open(root)
    change = ed.add_entry(
        pkg, "incidents/postmortems", "incidents/postmortems/2026-04-17-search-outage.md"
    )
    assert change.before is None
    assert (root / "incidents/postmortems/index.md").read_text() == FILES[
        "incidents/postmortems/index.md"
    ]
    assert [i.kind for i in pkg.listings("incidents/postmortems")] == ["document"]


def test_add_entry_of_an_unknown_target(pkg):
    with pytest.raises(EditError, match="neither a document nor a folder"):
        ed.add_entry(pkg, "", "nowhere.md")


def test_remove_entry(pkg, package_root):
    before = snapshot(package_root)
    ed.remove_entry(pkg, "billing/index.md", 6)
    data = only_change(package_root, before, "billing/index.md").decode()
    assert data == FILES["billing/index.md"].replace(
        "- [Invoice disputes](/billing/invoice-disputes.md) - How support triages a customer who"
        " says an invoice is wrong.\n",
        "",
    )
    assert pkg.unlisted() == ["billing/chargebacks.md", "billing/invoice-disputes.md"]
    assert (package_root / "billing/invoice-disputes.md").exists()  # the document stays


def test_move_entry(pkg, package_root):
    ed.move_entry(pkg, "incidents/index.md", 7, 1)
    lines = FILES["incidents/index.md"].split("\n")
    lines[6], lines[7] = lines[7], lines[6]
    assert (package_root / "incidents/index.md").read_text() == "\n".join(lines)
    assert [i.entry.title for i in pkg.listings("incidents")] == [
        "Severity levels",
        "Refund policy",
        "Incident response",
        "Postmortems",
    ]


def test_append_log(pkg, package_root):
    ed.append_log(pkg, "Update", "Tested the suite.", today=dt.date(2026, 11, 30))
    ed.append_log(pkg, "Verification", "Reviewed again.", today=dt.date(2026, 11, 30))
    assert (package_root / "log.md").read_text() == FILES["log.md"].replace(
        "## 2026-11-28\n",
        "## 2026-11-30\n* **Update**: Tested the suite.\n* **Verification**: Reviewed again.\n\n"
        "## 2026-11-28\n",
    )
    assert pkg.log.groups[0].date == "2026-11-30"


def test_append_log_creates_the_log(tmp_path):
    root = make_package(tmp_path)
    (root / "log.md").unlink()
    pkg = Package.open(root)
    assert pkg.log is None
    change = ed.append_log(
        pkg, "Initialization", "Created the package.", today=dt.date(2026, 12, 1)
    )
    assert change.before is None
    assert (root / "log.md").read_text() == (
        "# Update log\n\n## 2026-12-01\n* **Initialization**: Created the package.\n"
    )
    assert pkg.log.groups[0].bullets[0].kind == "Initialization"


def test_crlf_bom_document_stays_crlf_bom(tmp_path):
    root = make_package(tmp_path)
    rel = "incidents/incident-response.md"
    original = b"\xef\xbb\xbf" + FILES[rel].replace("\n", "\r\n").encode()
    (root / rel).write_bytes(original)
    pkg = Package.open(root)
    ed.set_field(pkg, rel, "tags", ["incidents", "response", "sev1"])
    ed.set_field(pkg, rel, "notes", "first line\nsecond line")
    data = (root / rel).read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert data == original.replace(b"  - response\r\n", b"  - response\r\n  - sev1\r\n").replace(
        b"owner: team:sre\r\n", b"owner: team:sre\r\nnotes: |-\r\n  first line\r\n  second line\r\n"
    )


def test_refused_edits_write_nothing(tmp_path):
    root = make_package(tmp_path)
    (root / "billing" / "broken.md").write_text("---\ntype: Note\ntitle: a: b\n---\n")
    pkg = Package.open(root)
    before = snapshot(root)
    with pytest.raises(EditError, match="cannot be read"):
        ed.set_field(pkg, "billing/broken.md", "title", "Fixed")
    with pytest.raises(EditError, match="read back"):
        ed.set_field(pkg, "glossary.md", "score", float("nan"))
    with pytest.raises(EditError, match="control characters"):
        ed.set_field(pkg, "glossary.md", "title", "evil \x1b[2J")
    with pytest.raises(EditError):
        ed.set_entry(pkg, "incidents/index.md", 3, title="two\nlines")
    with pytest.raises(EditError):
        ed.append_log(pkg, "Up\ndate", "a kind on two lines", today=dt.date(2026, 12, 1))
    with pytest.raises(EditError, match="not a document"):
        ed.set_field(pkg, "nowhere.md", "title", "x")
    assert snapshot(root) == before
    assert pkg.store.undo_stack == []


def test_edit_error_names_the_file(pkg):
    with pytest.raises(EditError) as info:
        ed.set_field(pkg, "glossary.md", "title", object())
    assert info.value.path == "glossary.md"
    assert str(info.value).startswith("glossary.md: ")


def test_conflict_with_another_program(pkg, package_root):
    path = package_root / "glossary.md"
    theirs = FILES["glossary.md"].replace("Terms used", "Words used").encode()
    path.write_bytes(theirs)
    with pytest.raises(ConflictError):
        ed.set_field(pkg, "glossary.md", "title", "Mine")
    assert path.read_bytes() == theirs
    path.unlink()
    with pytest.raises(ConflictError):
        ed.set_field(pkg, "glossary.md", "title", "Mine")
    assert not path.exists()


def test_undo_and_redo_through_the_package(pkg, package_root):
    ed.set_field(pkg, "glossary.md", "title", "Acme glossary")
    assert ed.undo(pkg) is not None
    assert (package_root / "glossary.md").read_text() == FILES["glossary.md"]
    assert pkg.documents["glossary.md"].title == "Glossary"
    assert ed.redo(pkg) is not None
    assert pkg.documents["glossary.md"].title == "Acme glossary"
    assert ed.undo(pkg) is not None
    assert ed.undo(pkg) is None


def test_edited_frontmatter_reads_back_as_yaml(pkg, package_root):
    rel = "billing/refund-policy.md"
    ed.set_field(pkg, rel, "stale_after", dt.date(2028, 1, 1))
    ed.set_field(pkg, rel, "status", "deprecated")
    meta = fm.parse((package_root / rel).read_text()).data
    assert meta["stale_after"] == "2028-01-01"
    assert meta["status"] == "deprecated"
    assert pkg.documents[rel].staleness(dt.date(2027, 12, 31)).describe() == "fresh for 1 day"


def test_editing_a_path_outside_the_package_is_an_edit_error(pkg):
    with pytest.raises((EditError, StoreError)):
        ed.set_field(pkg, "../outside.md", "title", "x")


def test_preview_shows_the_diff_and_writes_nothing(tmp_path):
    from kas_tui.core import editing
    from kas_tui.core.package import Package

    root = make_package(tmp_path)
    pkg = Package.open(root)
    doc = sorted(pkg.documents)[0]
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    store = pkg.store

    def edit(p):
        editing.set_field(p, doc, "status", "deprecated")
        editing.set_field(p, doc, "title", "Retired")  # sees the first edit's pending text

    diff = editing.preview(pkg, edit)
    assert f"--- a/{doc}" in diff and "+status: deprecated" in diff and "+title: Retired" in diff
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert pkg.store is store and not store.undo_stack
    assert pkg.documents[doc].status != "deprecated"


def test_raw_frontmatter_edit_keeps_the_body_and_line_endings(tmp_path):
    from kas_tui.core.package import Package

    root = make_package(tmp_path)
    path = root / "notes.md"
    path.write_bytes(b"---\r\ntype: Note\r\ntitle: Old\r\n---\r\nBody line\r\n")
    pkg = Package.open(root)
    ed.set_frontmatter_text(pkg, "notes.md", "type: Note\ntitle: New  # renamed\ntags: [a, b]\n")
    assert path.read_bytes() == (
        b"---\r\ntype: Note\r\ntitle: New  # renamed\r\ntags: [a, b]\r\n---\r\nBody line\r\n"
    )
    assert pkg.documents["notes.md"].title == "New"


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [("type: [unclosed\n", "invalid YAML.*line 3"), ("- a list\n- not a mapping\n", "mapping")],
)
def test_raw_frontmatter_edit_refuses_invalid_yaml(tmp_path, yaml_text, message):
    from kas_tui.core.okf.errors import EditError
    from kas_tui.core.package import Package

    root = make_package(tmp_path)
    path = root / "notes.md"
    path.write_text("---\ntype: Note\n---\nBody\n")
    before = path.read_bytes()
    pkg = Package.open(root)
    with pytest.raises(EditError, match=message) as info:
        ed.set_frontmatter_text(pkg, "notes.md", yaml_text)
    assert info.value.path == "notes.md" and "nothing was written" in str(info.value)
    assert path.read_bytes() == before


def test_body_edit_keeps_the_frontmatter_bytes(tmp_path):
    from kas_tui.core.package import Package

    root = make_package(tmp_path)
    path = root / "notes.md"
    head = b"\xef\xbb\xbf---\ntype: Note   # odd spacing kept\n'title': \"Q\"\n---\n"
    path.write_bytes(head + b"Old body\n")
    pkg = Package.open(root)
    ed.set_body(pkg, "notes.md", "# New\n\nBody [link](other.md).\n")
    assert path.read_bytes() == head + b"# New\n\nBody [link](other.md).\n"


def test_undo_removes_the_folders_a_created_file_needed_and_redo_makes_them(tmp_path):
    from kas_tui.core.store import Store

    store = Store()
    path = tmp_path / "new" / "deeper" / "doc.md"
    change = store.apply(path, lambda _t: "text\n", create=True, parents=True)
    assert change.folders == (tmp_path / "new", tmp_path / "new" / "deeper")
    store.undo()
    assert not (tmp_path / "new").exists()
    store.redo()
    assert path.read_text() == "text\n"
    (tmp_path / "new" / "keep.md").write_text("another program's file\n")
    store.undo()
    assert not path.exists() and (tmp_path / "new" / "keep.md").exists(), "only empty folders go"


def test_a_read_only_file_is_never_replaced(tmp_path):
    """chmod 444 in a writable folder: the rename would replace it (and root may write
    anything); the store refuses, as editors do, and the bytes stay."""
    path = tmp_path / "doc.md"
    path.write_bytes(b"---\ntype: Note\n---\nold\n")
    path.chmod(0o444)
    store = Store()
    with pytest.raises(store_mod.ReadOnlyError, match="doc.md: is read-only"):
        store.apply(path, lambda text: text.replace("old", "new"), label="edit")
    assert path.read_bytes() == b"---\ntype: Note\n---\nold\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert leftovers(tmp_path) == [] and store.undo_stack == []
    path.chmod(0o644)  # made writable again: the same edit goes through
    store.apply(path, lambda text: text.replace("old", "new"), label="edit")
    assert path.read_bytes() == b"---\ntype: Note\n---\nnew\n"
