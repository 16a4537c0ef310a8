"""Full-text search (kas_tui.features.find.fulltext): the query parser, the on-disk FTS5 index, its
incremental updates, the matching line, and recovery from a damaged or held file."""

from __future__ import annotations

import multiprocessing as mp
import os
import sqlite3
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kas_tui.core.load_cache import MetadataCache
from kas_tui.core.user_dirs import cache_dir
from kas_tui.features.find.fulltext import FullTextIndex
from kas_tui.features.find.fulltext import fts_index as index_module
from kas_tui.features.find.fulltext.lines import window
from kas_tui.features.find.fulltext.query import parse

RUNBOOK = "security/secrets-rotation-runbook.md"
HOSTILE = [
    '"',
    '""',
    '"""',
    "*",
    "**",
    "-",
    "--x",
    "AND",
    "OR",
    "NOT",
    "a AND",
    "AND OR NOT",
    "NEAR(a b, 3)",
    "(",
    "((",
    ")",
    "(rotate",
    "rotate)",
    "^stripe",
    "title:stripe",
    "{title body}: x",
    "+",
    "stripe*",
    'stripe"key',
    '"stripe key',
    "\x00",
    "\x01\x02",
    "'; DROP TABLE files; --",
    "🔑 stripe",
    "x" * 5000,
    "a " * 300,
]


def age(root: Path, seconds: float = 60.0) -> None:
    """Date every file ``seconds`` back, so the index trusts their stat (the racy-git
    rule re-reads a file modified within two seconds of being indexed)."""
    then = time.time() - seconds
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (then, then))


@pytest.fixture
def index(root: Path):
    age(root)
    idx = FullTextIndex(root)
    idx.sync()
    yield idx
    idx.close()


def line_of(root: Path, rel: str, number: int) -> str:
    return (root / rel).read_text(encoding="utf-8").split("\n")[number - 1]


def shown(hit) -> list[str]:
    return [hit.text[a:b] for a, b in hit.spans]


# -- the query -------------------------------------------------------------------------


def test_a_query_is_quoted_words_and_the_last_one_being_typed_is_a_prefix() -> None:
    query = parse("rotate STRIPE")
    assert query.match() == '"rotate" AND "stripe"*'
    assert query.any() == '"rotate" OR "stripe"*'
    assert parse("rotate stripe ").match() == '"rotate" AND "stripe"'
    assert parse('"dual credential" rule').terms == (("dual", "credential"), ("rule",))
    assert parse('"dual credential"').prefix is False
    assert parse('stripe "key').terms == (("stripe",), ("key",))  # an odd quote is text
    assert parse("AND OR NOT").match() == '"and" AND "or" AND "not"*'
    assert parse("s").prefix is False  # one letter is no prefix yet
    assert parse("rotati").trimmed == ("rotat", "rota", "rot")
    assert not parse("* - ( ) : ^")


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_queries_never_raise_nor_fail(index: FullTextIndex, text: str) -> None:
    results = index.search(text)
    assert results.note == ""


@given(st.text(max_size=60))
def test_any_text_is_a_valid_query(text: str) -> None:
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5(x, tokenize='{index_module.TOKENIZER}')")
    db.execute("INSERT INTO t VALUES ('rotate the stripe key')")
    query = parse(text)
    if query:
        for expression in (query.match(), query.any(), *(query.match(t) for t in query.trimmed)):
            db.execute("SELECT count(*) FROM t WHERE t MATCH ?", (expression,)).fetchone()


# -- finding and ranking ---------------------------------------------------------------


def test_rotate_stripe_finds_the_runbook_at_a_matching_line(root: Path, index) -> None:
    results = index.search("rotate stripe")
    assert results.note == "" and not results.building
    assert results.indexed == results.total == 39
    hit = results.hits[0]
    assert hit.path == RUNBOOK
    assert hit.title == "Secrets rotation runbook"
    assert hit.field == "body"
    line = line_of(root, RUNBOOK, hit.line)
    assert hit.text.strip("…") in line
    assert {w.lower() for w in shown(hit)} & {"rotation", "stripe"}
    # every hit's line is a line of its file holding the highlighted words
    for hit in index.search("refund", limit=10).hits:
        text = line_of(root, hit.path, hit.line)
        assert hit.text.strip("…") in text
        assert all(w.lower().startswith("refund") for w in shown(hit)), hit


def test_stems_and_prefixes_find_the_word_being_typed(index) -> None:
    for typed in ("rot", "rotat", "rotati", "rotatin", "rotating", "rotations"):
        paths = [h.path for h in index.search(typed).hits]
        assert RUNBOOK in paths, typed
    hit = index.search("dual-credential").hits[0]  # a phrase of two words
    assert hit.path == RUNBOOK and shown(hit) == ["dual", "credential"]


def test_a_title_match_ranks_above_a_body_match(root: Path) -> None:
    write(root, "a-body.md", "Body mention", "kestrel " * 3)
    write(root, "b-title.md", "Kestrel migration", "Nothing else here.")
    idx = FullTextIndex(root)
    idx.sync()
    hits = idx.search("kestrel").hits
    assert [h.path for h in hits][:2] == ["b-title.md", "a-body.md"]
    # only the title holds it: the title line of the frontmatter is named
    assert hits[0].field == "title" and line_of(root, "b-title.md", hits[0].line).startswith(
        "title:"
    )
    assert hits[1].field == "body" and "kestrel" in line_of(root, "a-body.md", hits[1].line)
    idx.close()


def test_words_spread_over_lines_still_find_the_document(root: Path) -> None:
    write(root, "spread.md", "Spread", "alpha one\n\nsecond line\n\nomega here")
    idx = FullTextIndex(root)
    idx.sync()
    (hit,) = idx.search("alpha omega").hits
    assert hit.path == "spread.md" and line_of(root, "spread.md", hit.line) in (
        "alpha one",
        "omega here",
    )
    idx.close()


def write(root: Path, rel: str, title: str, body: str, mtime: float | None = None) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    text = f"---\ntype: Note\ntitle: {title}\ndescription: A note.\n---\n\n{body}\n"
    path.write_bytes(text.encode())
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


# -- keeping up to date ----------------------------------------------------------------


def test_a_second_open_reads_nothing_again(root: Path, index) -> None:
    again = FullTextIndex(root)
    assert again.sync() == 0
    assert again.search("rotate stripe").hits[0].path == RUNBOOK
    again.close()


def test_edit_delete_and_add_are_picked_up_by_sync(root: Path, index) -> None:
    old = time.time() - 60
    path = root / RUNBOOK
    path.write_bytes(path.read_bytes() + b"\nA zanzibar clause was added.\n")
    (root / "oncall/oncall-faq.md").unlink()
    write(root, "oncall/pager-etiquette.md", "Pager etiquette", "Answer the quokka page.", old)
    assert index.sync() == 3
    (hit,) = index.search("zanzibar").hits
    assert hit.path == RUNBOOK
    assert line_of(root, RUNBOOK, hit.line) == "A zanzibar clause was added."
    assert [h.path for h in index.search("quokka").hits] == ["oncall/pager-etiquette.md"]
    assert "oncall/oncall-faq.md" not in index.stored()
    assert all(h.path != "oncall/oncall-faq.md" for h in index.search("join rotation").hits)
    assert index.search("anything").total == 39


def test_update_reads_named_files_again(root: Path, index) -> None:
    path = root / RUNBOOK
    path.write_bytes(path.read_bytes().replace(b"Rotate on schedule", b"Rotate on wombat"))
    assert index.update([RUNBOOK, "not/a/document.md"]) == 1
    hit = index.search("wombat").hits[0]
    assert "Rotate on wombat" in line_of(root, RUNBOOK, hit.line)
    path.unlink()
    assert index.update([RUNBOOK]) == 1
    assert index.search("wombat").hits == []


def test_a_file_changed_within_the_racy_window_is_read_again(root: Path, index) -> None:
    path = root / RUNBOOK
    stat = path.stat()
    data = path.read_bytes().replace(b"Rotate on schedule", b"Rotate on ocelots!")
    path.write_bytes(data)  # same size; the mtime set back to what the index stored
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert index.sync() == 0  # (size, mtime) unchanged and old: trusted
    now = time.time_ns()
    os.utime(path, ns=(now, now))
    index.sync()
    os.utime(path, ns=(now, now))  # still the stored stat, but modified as it was read
    assert index.sync() == 1
    assert index.search("ocelots").hits[0].path == RUNBOOK


def test_the_package_lends_its_parsed_frontmatter(root: Path, demo) -> None:
    idx = FullTextIndex(root)
    idx.sync(demo)
    hit = idx.search("secrets rotation runbook").hits[0]
    assert hit.title == demo.documents[RUNBOOK].title
    idx.close()


# -- where it lives, and what goes wrong -----------------------------------------------


def test_the_index_lives_in_the_user_cache_folder_beside_the_metadata_cache(root: Path) -> None:
    idx = FullTextIndex(root)
    meta = MetadataCache(root)
    assert idx.path.parent == cache_dir() == meta.path.parent
    assert idx.path.name.startswith("fulltext-") and idx.path.suffix == ".sqlite3"
    assert idx.path.name[len("fulltext-") : -len(".sqlite3")] == meta.path.stem[len("meta-") :]
    idx.close()


@pytest.mark.parametrize(
    "damage",
    [
        b"this is not a database at all" * 100,
        b"SQLite format 3\x00" + b"\xff" * 4000,
    ],
)
def test_a_damaged_file_is_rebuilt_and_said_so(root: Path, index, damage: bytes) -> None:
    path = index.path
    index.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(damage)
    idx = FullTextIndex(root)
    assert idx.notes and "unreadable" in idx.notes[0] and "rebuilt" in idx.notes[0]
    assert idx.sync() == 39
    assert idx.search("rotate stripe").hits[0].path == RUNBOOK
    idx.close()


def test_another_schema_is_replaced(root: Path, index) -> None:
    db = sqlite3.connect(index.path)
    db.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    db.commit()
    db.close()
    idx = FullTextIndex(root)
    assert idx.sync() == 39
    assert idx.search("rotate stripe").hits[0].path == RUNBOOK
    idx.close()


def test_damage_found_by_a_search_is_repaired_by_the_next_sync(root: Path, index) -> None:
    db = sqlite3.connect(index.path)
    db.execute("DROP TABLE docs")
    db.commit()
    db.close()
    results = index.search("stripe")
    assert results.hits == [] and "damaged" in results.note
    assert index.sync() == 39
    assert RUNBOOK in [h.path for h in index.search("stripe").hits]


def test_a_file_held_by_another_process_gives_way_to_a_private_copy(
    root: Path, index, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_module, "BUSY_SECONDS", 0.2)
    index.close()
    holder = sqlite3.connect(index.path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        idx = FullTextIndex(root)
        idx.sync()
        assert any("private copy" in note for note in idx.notes)
        assert idx.file != str(idx.path)
        assert idx.search("rotate stripe").hits[0].path == RUNBOOK
        private = Path(idx.file)
        idx.close()
        assert not private.exists()
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_an_unwritable_cache_folder_gives_way_to_a_private_copy(root: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be")
    idx = FullTextIndex(root, folder=blocked / "cache")
    idx.sync()
    assert any("private copy" in note for note in idx.notes)
    assert idx.search("rotate stripe").hits[0].path == RUNBOOK
    idx.close()


def _sync_in_process(root: Path, barrier) -> None:
    idx = FullTextIndex(root)
    barrier.wait()
    idx.sync()
    idx.close()


def test_two_processes_building_at_once_agree(tmp_path: Path) -> None:
    from benchmarks.generate import generate_package

    root = generate_package(tmp_path / "big-kb", 600)
    age(root)
    ctx = mp.get_context("fork")  # two processes, as two TUIs on one package
    barrier = ctx.Barrier(2)
    workers = [ctx.Process(target=_sync_in_process, args=(root, barrier)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    idx = FullTextIndex(root)
    assert not idx.notes
    stored = idx.stored()
    assert len(stored) == 600
    db = sqlite3.connect(idx.path)
    assert db.execute("SELECT count(*) FROM docs").fetchone() == (600,)
    db.close()
    assert idx.sync() == 0
    hits = idx.search("doc-00042", limit=5).hits  # a link in doc 41's body
    assert [h.path for h in hits] == ["area-00/bundle-000/doc-00041.md"]
    idx.close()


# -- the line shown --------------------------------------------------------------------


def test_a_long_line_is_cut_around_its_first_match() -> None:
    text = "   " + "word " * 60 + "needle " + "tail " * 60
    start = text.index("needle")
    shown, spans = window(text, [(start, start + 6)], size=60)
    assert len(shown) <= 62 and shown.startswith("…") and shown.endswith("…")
    ((a, b),) = spans
    assert shown[a:b] == "needle"
    short, kept = window("  short line  ", [(2, 7)])
    assert short == "short line" and kept == ((0, 5),)


def test_progress_says_how_far_a_build_got(root: Path) -> None:
    idx = FullTextIndex(root)
    assert idx.progress == (0, 0)
    seen = []
    original = idx._write

    def spy(reads, gone):
        original(reads, gone)
        seen.append(idx.search("stripe").indexed)

    idx._write = spy  # type: ignore[method-assign]
    index_module.BATCH, batch = 10, index_module.BATCH
    try:
        idx.sync()
    finally:
        index_module.BATCH = batch
    assert seen[0] == 10 and seen[-1] == 39 and seen == sorted(seen)
    assert idx.progress == (39, 39)
    idx.close()


def test_of_a_very_large_document_only_the_start_is_read_and_indexed(
    root: Path, monkeypatch
) -> None:
    """A 200 MB page cost a gigabyte to index (issue 30, item 2): its start is indexed."""
    from kas_tui.features.find.fulltext import reading

    monkeypatch.setattr(reading, "LARGE_DOCUMENT_BYTES", 4096)
    page = root / "incidents" / "huge-log.md"
    lines = [f"Line {n}: the pager rang at night.\n" for n in range(400)]
    lines[3] = "Line 3: zeppelinstart opens the log.\n"
    lines[300] = "Line 300: zeppelinfinish closes it.\n"
    page.write_text("---\ntype: Reference\ntitle: Huge log\n---\n\n" + "".join(lines))
    age(root)
    idx = FullTextIndex(root)
    idx.sync()
    try:
        hits = idx.search("zeppelinstart").hits
        assert [h.path for h in hits] == ["incidents/huge-log.md"]
        assert "zeppelinstart" in hits[0].text
        assert idx.search("zeppelinfinish").hits == []  # past the start: not indexed
        assert idx.search("zeppelinstart").indexed == 40
    finally:
        idx.close()
