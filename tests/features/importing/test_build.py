"""`kas-tui build`: a package from a folder of documents, and rebuilding it safely.

The source folder mixes Markdown with another tool's frontmatter (linking to each
other across folders whose names need slugging), a Word document, a web page, a CSV,
a text file, an image asset and two bad files. The result must pass
``check --agent-ready`` with no errors; a second build must change nothing; a build
after the sources changed must take the changes in and keep every curator edit.
"""

# ruff: noqa: E501  (sample documents hold long lines, as real ones do)

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import yaml_patch
from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.links import extract_links, resolve
from kas_tui.core.okf.log import parse_log
from kas_tui.core.okf.skill import parse_skill
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import MANIFEST, BuildError, build
from kas_tui.features.importing.progress import Progress
from tests.helpers.build_sources import article, tree, write_sources

NOW = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.timezone.utc)
LATER = dt.datetime(2026, 12, 5, 9, 0, tzinfo=dt.timezone.utc)


def errors(root: Path, today: dt.date | None = None) -> list[str]:
    pkg = Package(root)
    pkg.load(scan=True)
    report = check(pkg, agent_ready=True, today=today or NOW.date())
    return [f"{f.code} {f.path}: {f.message}" for f in report.findings if f.severity == "error"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """One first build of the sample sources (the slow part, shared by the module)."""
    base = tmp_path_factory.mktemp("build")
    source = write_sources(base / "src")
    result = build(source, base / "help-kb", now=NOW, workers=2)
    return source, base / "help-kb", result


def test_the_build_passes_the_agent_ready_check(built) -> None:
    _source, out, result = built
    assert result.report.count("error") == 0, result.report.findings
    assert errors(out) == []
    assert result.sources == 10  # the hidden folder and the image are not documents
    assert sorted(e.message.split(":")[0] for e in result.failed) == ["broken.pdf", "firmware.bin"]
    assert "broken.pdf: corrupt" in {e.message[: len("broken.pdf: corrupt")] for e in result.failed}


def test_folders_and_names_become_slugs_keeping_the_structure(built) -> None:
    _source, out, result = built
    assert sorted(result.created) == [
        "calendars/holidays.md",
        "calendars/room-booking.md",
        "calendars/sharing/permissions.md",
        "calendars/sharing/shared-calendar.md",
        "mail-flow/delayed-mail.md",
        "mail-flow/ndr-550-5-1-1.md",
        "notes.md",
        "status-page.md",
    ]
    assert (out / "mail-flow/media/ndr.png").read_bytes().startswith(b"\x89PNG")
    assert not any(".hidden" in p for p in tree(out))


def test_links_follow_the_renamed_files(built) -> None:
    _source, out, _result = built
    body = (out / "mail-flow/ndr-550-5-1-1.md").read_text()
    assert "[delays](delayed-mail.md#cause)" in body
    assert "[calendar guide](/calendars/sharing/shared-calendar.md)" in body
    assert "![diagram](media/ndr.png)" in body
    back = (out / "calendars/sharing/shared-calendar.md").read_text()
    assert "(../../mail-flow/ndr-550-5-1-1.md)" in back
    pkg = Package(out)
    pkg.load()
    for path in pkg.documents:
        for link in extract_links(pkg.body(path)):
            target = resolve(path, link.target)
            if target.kind == "internal":
                assert (out / target.path).exists(), (path, link.target)


def test_markdown_keeps_its_frontmatter_and_gains_okf_fields(built) -> None:
    source, out, _result = built
    text = (out / "mail-flow/delayed-mail.md").read_text()
    meta = fm.parse(text).data
    assert meta["type"] == "Troubleshooting" and meta["status"] == "draft"
    assert meta["ms.topic"] == "troubleshooting"
    assert meta["description"].startswith("Explains why outbound mail queues")
    # outside the package, read from the document's folder as a link is (OKF 6.2)
    assert meta["sources"][0]["resource"] == "../../src/Mail Flow/delayed-mail.md"
    assert meta["generated"] == {"by": "kas-tui/0.1.0", "at": "2026-11-30T10:00:00Z"}
    original = (source / "Mail Flow/delayed-mail.md").read_text()
    assert text.endswith(original.split("---\n", 2)[2])  # the body, byte for byte


def test_every_folder_has_an_index_describing_its_content(built) -> None:
    _source, out, _result = built
    root = parse_index((out / "index.md").read_text())
    assert root.frontmatter == {"okf_version": "0.2"}
    entries = {e.target: e for e in root.entries}
    assert set(entries) == {"calendars/", "mail-flow/", "notes.md", "status-page.md"}
    assert entries["mail-flow/"].title == "Mail Flow"
    assert entries["mail-flow/"].description.startswith("2 troubleshooting articles on Mail Flow: ")
    assert entries["calendars/"].description.startswith("Calendars: 4 documents on Sharing")
    sharing = parse_index((out / "calendars/sharing/index.md").read_text())
    assert {e.target for e in sharing.entries} == {"permissions.md", "shared-calendar.md"}
    for entry in sharing.entries:
        doc = fm.parse((out / "calendars/sharing" / entry.target).read_text()).data
        assert entry.description == doc["description"] and entry.title == doc["title"]


def test_skill_md_says_what_and_when_and_how_to_navigate(built) -> None:
    _source, out, _result = built
    skill = parse_skill((out / "SKILL.md").read_text())
    assert skill.problems == []
    assert skill.name == "help-kb"
    assert "Calendars" in skill.description and "Use when" in skill.description
    assert len(skill.description) <= 1024
    for heading in (
        "## Scope",
        "## Exclusions",
        "## Navigation",
        "## Entry points",
        "## Freshness",
        "## When to stop",
    ):
        assert heading in skill.body
    assert "`broken.pdf: corrupt`" in skill.body  # what is missing, said where an agent reads
    log = parse_log((out / "log.md").read_text())
    assert log.problems == [] and log.groups[0].bullets[0].kind == "Initialization"


def test_a_second_build_changes_nothing(built, tmp_path: Path) -> None:
    source, out, _result = built
    copy = tmp_path / "help-kb"
    shutil.copytree(out, copy)
    before = tree(copy)
    stages: list[tuple[str, int, int]] = []
    again = build(source, copy, now=LATER, workers=2, progress=lambda *a: stages.append(a))
    assert (again.created, again.updated, again.kept) == ([], [], [])
    assert again.unchanged == 8
    assert tree(copy) == before  # not one byte, not even log.md
    assert ("convert", 0, 0) in stages  # nothing converted, not even the bad files again
    assert sorted(e.reason for e in again.failed) == ["corrupt", "unsupported"]


def test_a_second_build_over_unchanged_sources_writes_nothing(built, tmp_path: Path) -> None:
    source, out, _result = built
    copy = tmp_path / "help-kb"
    shutil.copytree(out, copy)
    files = sorted(p for p in copy.rglob("*") if p.is_file())
    manifest = (copy / MANIFEST).read_bytes()
    stamps = {p: p.stat().st_mtime_ns for p in files}
    build(source, copy, now=LATER, workers=2)
    assert (copy / MANIFEST).read_bytes() == manifest  # not even its timestamp
    assert {p: p.stat().st_mtime_ns for p in files} == stamps
    assert sorted(p for p in copy.rglob("*") if p.is_file()) == files


def test_a_rebuild_takes_changes_in_and_keeps_curator_edits(built, tmp_path: Path) -> None:
    source0, out0, _result = built
    source, out = tmp_path / "src", tmp_path / "help-kb"
    shutil.copytree(source0, source)
    shutil.copytree(out0, out)
    # a curator edits a description, an index entry, a body and SKILL.md; deletes a document
    delayed = out / "mail-flow/delayed-mail.md"
    delayed.write_text(
        delayed.read_text().replace("Explains why outbound mail queues", "Why mail queues")
    )
    index = out / "calendars/sharing/index.md"
    index.write_text(
        index.read_text().replace(
            "Fixes a shared calendar that shows stale meetings",
            "Stale meetings in a shared calendar",
        )
    )
    permissions = out / "calendars/sharing/permissions.md"
    permissions.write_text(
        permissions.read_text() + "\nCurator note: check the migration log first.\n"
    )
    skill = out / "SKILL.md"
    curated = "Curated: " + parse_skill(skill.read_text()).description
    skill.write_text(yaml_patch.set_field(skill.read_text(), "description", curated))
    (out / "notes.md").unlink()
    # the sources change: two articles are rewritten, one is added
    (source / "Mail Flow/delayed-mail.md").write_text(
        article(
            "Mail is delayed",
            "Explains why outbound mail queues for hours and how to clear the queue.",
            "# Delayed mail\n\nNew text.\n",
        )
    )
    (source / "Calendars/Sharing/permissions.md").write_text(
        article(
            "Calendar permissions are lost",
            "Restores calendar permissions lost in a migration.",
            "# Permissions\n\nRewritten.\n",
        )
    )
    (source / "Calendars/Sharing/delegates.md").write_text(
        article(
            "Delegates cannot accept meetings",
            "Lets a delegate accept meeting requests again after the delegate list is rebuilt.",
            "# Delegates\n\nRebuild the list.\n",
        )
    )
    result = build(source, out, now=LATER, workers=2)
    assert result.created == ["calendars/sharing/delegates.md"]
    assert sorted(result.updated) == [
        "calendars/sharing/permissions.md",
        "mail-flow/delayed-mail.md",
    ]
    delayed_meta = fm.parse(delayed.read_text()).data
    assert delayed_meta["description"].startswith("Why mail queues")  # the curator's, kept
    assert delayed_meta["title"] == "Mail is delayed"  # untouched by the curator: updated
    assert "New text." in delayed.read_text()
    perms = permissions.read_text()
    assert fm.parse(perms).data["title"] == "Calendar permissions are lost"
    assert "Curator note" in perms and "Rewritten." not in perms  # an edited body is kept
    assert "Stale meetings in a shared calendar" in index.read_text()
    assert "delegates.md" in index.read_text()
    assert parse_skill(skill.read_text()).description == curated
    assert not (out / "notes.md").exists()  # deleted by the curator: not brought back
    kept = "\n".join(result.kept)
    assert "mail-flow/delayed-mail.md: 'description' was edited by a curator; kept" in kept
    assert "the body was edited by a curator" in kept
    assert "SKILL.md: the description was edited by a curator; kept" in kept
    assert any("notes.md: deleted since the last build" in n for n in result.notes)
    log = parse_log((out / "log.md").read_text())
    assert log.groups[0].date == "2026-12-05" and log.groups[0].bullets[0].kind == "Update"
    assert errors(out, LATER.date()) == []
    manifest = json.loads((out / MANIFEST).read_text())
    assert (
        manifest["documents"]["Calendars/Sharing/delegates.md"]["path"]
        == "calendars/sharing/delegates.md"
    )
    # and the build after that still sees the curator's values as theirs
    again = build(source, out, now=LATER, workers=2)
    assert again.updated == [] and again.created == []
    assert fm.parse(delayed.read_text()).data["description"].startswith("Why mail queues")


def test_build_refuses_what_it_should(tmp_path: Path, capsys) -> None:
    source = write_sources(
        tmp_path / "src", {"a.md": "# A\n\nSome text that says what A is about today.\n"}
    )
    with pytest.raises(BuildError, match="must equal the package folder's name"):
        build(source, tmp_path / "out-kb", name="other-kb")
    with pytest.raises(BuildError, match="not a valid skill name"):
        build(source, tmp_path / "Out KB")
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.md").write_text("mine")
    with pytest.raises(BuildError, match="not empty and was not made by kas-tui build"):
        build(source, tmp_path / "taken")
    assert main(["build", str(source), str(tmp_path / "taken")]) == 2
    assert "not empty" in capsys.readouterr().err


def test_build_cli_reports_progress_failures_and_the_check(tmp_path: Path, capsys) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "guide.md": "# Guide\n\nThis guide explains how the helpdesk triages incoming tickets.\n",
            "bad.pdf": b"not a pdf at all",
        },
    )
    code = main(["build", str(source), str(tmp_path / "desk-kb"), "--workers", "1"])
    err = capsys.readouterr().err
    assert code == 1  # a file failed
    assert "converting: 2/2 (100%)" in err
    assert "bad.pdf: corrupt: not a PDF (no %PDF- header)" in err
    assert "check --agent-ready: 0 errors" in err
    assert (tmp_path / "desk-kb" / "guide.md").is_file()


def test_a_build_where_every_file_fails_writes_nothing(tmp_path: Path, capsys) -> None:
    """No empty package hiding the failures: refused, exit 2, the output folder absent."""
    source = write_sources(
        tmp_path / "src",
        {"bad.pdf": b"not a pdf at all", "worse.docx": b"not a zip either"},
    )
    out = tmp_path / "desk-kb"
    with pytest.raises(BuildError, match="none of its 2 files could be converted"):
        build(source, out, workers=1)
    assert not out.exists()
    assert main(["build", str(source), str(out), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "none of its 2 files could be converted" in err and "nothing was built" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_progress_lines_with_an_eta(monkeypatch) -> None:
    import io

    import kas_tui.features.importing.progress as progress_module

    clock = iter([0.0, 10.0, 10.0, 20.0, 30.0])
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: next(clock))
    stream = io.StringIO()
    bar = Progress("converting", 100, stream=stream, tty=False, every=5.0)
    bar.update(25)
    bar.finish()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "converting: 25/100 (25%), 2.5/s, ETA 0:30"
    assert lines[1] == "converting: 100/100 (100%) in 20.0 s"


def test_a_rebuild_never_writes_over_a_curators_file(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {"faq.md": "# FAQ\n\nAnswers to the questions the helpdesk hears most often.\n"},
    )
    out = tmp_path / "desk-kb"
    build(source, out, now=NOW)
    (out / "howto.md").write_text(
        "---\ntype: Note\ntitle: Mine\ndescription: A curator's own note on the helpdesk rota.\n---\nMine.\n"
    )
    (source / "howto.md").write_text(
        "# How to\n\nHow the helpdesk escalates a ticket to the second line.\n"
    )
    result = build(source, out, now=LATER)
    assert result.created == ["howto-2.md"]
    assert "title: Mine" in (out / "howto.md").read_text()


LINKS_SOURCE = """\
# Guide

See [the other page](Other%20Page.md), the [product page](/docs/product/setup) and
the [teams page](/teams/x "Teams").

```
[in a fence](Other%20Page.md) and [fenced site link](/teams/fenced)
```

Code `[in a span](Other%20Page.md)` and `[span site link](/teams/span)`.

    [indented](Other%20Page.md)

[ref]: Other%20Page.md
Uses the [ref].
"""


def test_build_rewrites_exactly_the_links_markdown_it_sees(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "Guide.md": LINKS_SOURCE,
            "Other Page.md": "# Other\n\nThe page the guide links to, renamed by the build.\n",
        },
    )
    out = tmp_path / "links-kb"
    build(source, out, now=NOW, link_base="https://site/docs/product")
    body = (out / "guide.md").read_text()
    assert "[the other page](other-page.md)" in body  # a slug rename
    # --link-base joins like a URL base: the /-rooted path replaces the base's, never twice
    assert "[product page](https://site/docs/product/setup)" in body
    assert '[teams page](https://site/teams/x "Teams")' in body
    assert "```\n[in a fence](Other%20Page.md) and [fenced site link](/teams/fenced)\n```" in body
    assert "`[in a span](Other%20Page.md)` and `[span site link](/teams/span)`" in body
    assert "    [indented](Other%20Page.md)" in body
    assert "[ref]: other-page.md\n" in body


def test_build_refuses_a_link_base_that_is_no_site(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "src", {"a.md": "# A\n\nA page of the help centre.\n"})
    with pytest.raises(BuildError, match=r"--link-base 'learn\.microsoft\.com' is not a site"):
        build(source, tmp_path / "a-kb", now=NOW, link_base="learn.microsoft.com")


def _spoil(manifest: dict, how: str) -> None:
    documents = manifest["documents"]
    first = next(iter(documents.values()))
    if how == "documents a list":
        manifest["documents"] = []
    elif how == "a record without a path":
        first.pop("path")
    elif how == "sections a number":
        first["sections"] = 5
    elif how == "indexes text":
        manifest["indexes"] = "x"
    elif how == "a path leaving the package":
        for record in documents.values():
            record["path"] = "../outside/" + record["path"].rsplit("/", 1)[-1]
    elif how == "an asset path leaving the package":
        for record in manifest["assets"].values():
            record["path"] = "/etc/" + record["path"].rsplit("/", 1)[-1]


@pytest.mark.parametrize(
    "how",
    [
        "documents a list",
        "a record without a path",
        "sections a number",
        "indexes text",
        "a path leaving the package",
        "an asset path leaving the package",
    ],
)
def test_a_build_record_spoilt_by_hand_is_refused_naming_what(
    built, tmp_path: Path, capsys, how: str
) -> None:
    """A later build reads every part of the record, and writes where its paths say:
    a record no build wrote (a hand edit, a merge) is refused with what is wrong and
    what to do, never a traceback, and nothing is written, inside or outside."""
    source, out, _result = built
    copy = tmp_path / "help-kb"
    shutil.copytree(out, copy)
    outside = tmp_path / "outside"
    outside.mkdir()
    manifest = json.loads((copy / MANIFEST).read_text("utf-8"))
    for record in manifest["documents"].values():  # pages a spoilt record could overwrite
        (outside / record["path"].rsplit("/", 1)[-1]).write_text("mine\n")
    _spoil(manifest, how)
    (copy / MANIFEST).write_text(json.dumps(manifest), "utf-8")
    before, theirs = tree(copy), tree(outside)
    for page in source.rglob("*.md"):
        page.write_text(page.read_text("utf-8") + "\nChanged.\n", "utf-8")
    assert main(["build", str(source), str(copy)]) == 2
    err = capsys.readouterr().err
    assert MANIFEST in err and "remove the file to build the package again" in err
    assert "Traceback" not in err
    assert tree(copy) == before and tree(outside) == theirs


def test_control_characters_in_a_pages_name_body_or_metadata_never_reach_its_entry(
    tmp_path: Path, capsys
) -> None:
    """A page named with an ESC, a body that opens with a colour code, a description with
    one: the build wrote them into an index entry, which refused them: a traceback, and
    nothing built. Now they are spaces, in the entries and in the metadata drafted."""
    from kas_tui.core.okf.text import control_chars

    files = {
        "guide/ctl\x1bname.md": "# Ctl\n\nname\x1b[31m red and more words here.\n",
        "guide/own.md": article("Own", '"Says \\e what it says."', "# Own\n\nBody.\n"),
        "guide/plain.md": "# Plain\n\nA plain page about plain things.\n",
    }
    out = tmp_path / "kb"
    assert main(["build", str(write_sources(tmp_path / "src", files)), str(out)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    for index in out.rglob("index.md"):
        for entry in parse_index(index.read_text("utf-8")).entries:
            assert not control_chars(entry.title + entry.description), entry
    for page in (out / "guide").glob("*.md"):
        parsed = fm.parse(page.read_text("utf-8"))
        if parsed is not None and page.name != "index.md":
            said = f"{parsed.data.get('title')} {parsed.data.get('description')}"
            assert not control_chars(said), page


def test_build_notes_naming_hostile_names_print_no_control_character(
    tmp_path: Path, capsys
) -> None:
    """A nav naming 'ghost<ESC>[2J.md' (clear the screen) or 'new<LF>line.md': each note
    stays one line, its names written out."""
    files = {
        "mkdocs.yml": 'site_name: Site\nnav:\n  - index.md\n  - "ghost\\e[2J.md"\n'
        '  - "new\\nline.md"\n',
        "docs/index.md": "# Home\n\nThe home page of the site, in a few words.\n",
    }
    out = tmp_path / "kb"
    main(["build", str(write_sources(tmp_path / "src", files)), str(out), "--verbose"])
    err = capsys.readouterr().err
    assert "ghost\\x1b[2J.md" in err and "\x1b" not in err
    assert "nav names new\\nline.md, which" in err  # one line, not two
