"""The build's index budget: a folder too large for one index becomes topical sub-bundles."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from kas_tui.core.okf.index import parse_index
from kas_tui.core.okf.links import extract_links, resolve
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import MANIFEST, BuildError, build
from kas_tui.text.grouping import Member, fold, group, phrases
from kas_tui.text.tokens import estimate_tokens
from tests.helpers.build_sources import article, tree, write_sources

NOW = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)
LATER = NOW + dt.timedelta(days=3)

#: Six topics of a mail product, ten articles each; every title names the product.
TOPICS = {
    "mail flow": ["bounce", "queue", "connector", "relay", "smart host"],
    "calendar": ["meeting", "room", "delegate", "reminder", "time zone"],
    "public folder": ["migration", "permission", "replica", "quota", "hierarchy"],
    "mobile device": ["sync", "wipe", "quarantine", "certificate", "battery"],
    "retention policy": ["archive", "hold", "tag", "purge", "litigation"],
    "address book": ["offline", "download", "entry", "hidden", "gal"],
}


def _sources() -> dict[str, str]:
    files = {"README.md": "# Contoso Exchange articles\n\nHow to contribute.\n"}
    for topic, things in TOPICS.items():
        for i in range(10):
            thing = things[i % len(things)]
            slug = f"{topic.replace(' ', '-')}-{thing.replace(' ', '-')}-{i}"
            title = f"Contoso Exchange {topic} problem with the {thing} in case {i}"
            description = (
                f"Explains why the Contoso Exchange {topic} {thing} fails in case {i} of many "
                "similar reports from administrators, and the steps that resolve it for good."
            )
            body = f"# {title}\n\n## Symptoms\n\nThe {thing} fails.\n\n## Resolution\n\nFix it.\n"
            if i == 0:
                following = f"{topic.replace(' ', '-')}-{things[1].replace(' ', '-')}-1.md"
                body += f"\nSee [the next case]({following}).\n"
            files[f"Contoso Exchange/{slug}.md"] = article(title, description, body)
    return files


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("groups")
    source = write_sources(base / "src", _sources())
    out = base / "mail-kb"
    result = build(source, out, now=NOW, workers=1, index_budget=1000)
    return source, out, result


def test_phrases_fold_plurals_and_pair_adjacent_words() -> None:
    assert fold("mailboxes") == "mailbox" and fold("policies") == "policy"
    assert fold("access") == "access" and fold("status") == "status"
    found = phrases("Public folders cannot be migrated")
    assert {"public", "folder", "public folder", "migrated"} <= set(found)
    assert found["public folder"] == "Public folders"


def test_group_names_groups_by_shared_title_phrases_and_is_deterministic() -> None:
    members = [
        Member(f"{t}-{i}.md", f"Contoso {t} issue number {i}", f"About {t}.")
        for t in ("calendar", "mailbox", "transport")
        for i in range(5)
    ]
    groups, kept = group(members, capacity=6, parent_room=10, context="Contoso")
    assert sorted(g.label for g in groups) == ["Calendar", "Mailbox", "Transport"]
    assert kept == []
    assert all(len(g.members) == 5 for g in groups)
    # the folder's own words (every title holds them) name no group; input order is moot
    again, _ = group(list(reversed(members)), capacity=6, parent_room=10, context="Contoso")
    assert [(g.label, g.members) for g in again] == [(g.label, g.members) for g in groups]


def test_a_task_verb_names_no_group() -> None:
    """Task titles start with what they do ("Add a web server instance", "Create a
    codeunit"): NAV's flat folder was grouped into bundles named Add, Change and
    Create, which say nothing of what their pages are about."""
    members = [
        Member(f"{verb}-{thing}-{i}.md", f"{verb.title()} a {thing} {i}")
        for verb in ("add", "create", "change")
        for thing in ("codeunit", "report", "server")
        for i in range(2)
    ]
    groups, _kept = group(members, capacity=8, parent_room=10)
    labels = sorted(g.label for g in groups)
    assert labels and not {"Add", "Create", "Change"} & set(labels)
    assert set(labels) <= {"Codeunit", "Report", "Server"}


def test_nothing_to_tell_apart_gives_no_groups() -> None:
    members = [Member(f"{i}.md", f"Same words {i}") for i in range(12)]
    assert group(members, capacity=5, parent_room=5) == ([], sorted(m.key for m in members))


def test_every_index_the_build_writes_fits_the_budget(grouped) -> None:
    _source, out, result = grouped
    assert result.errors == 0
    indexes = sorted(out.rglob("index.md"))
    assert len(indexes) > 3  # the one folder became sub-bundles
    for index in indexes:
        assert estimate_tokens(index.read_text("utf-8")) <= 1000, index
    top = parse_index((out / "contoso-exchange/index.md").read_text("utf-8"))
    titles = {item.title for item in top.entries}
    assert {"Mail flow", "Calendar", "Public folder", "Mobile device"} <= titles


def test_sub_bundles_hold_their_topic_and_links_follow_the_moves(grouped) -> None:
    _source, out, _result = grouped
    calendar = sorted(p.name for p in (out / "contoso-exchange/calendar").glob("*.md"))
    assert len(calendar) == 11 and "index.md" in calendar
    assert all(n.startswith("calendar-") for n in calendar if n != "index.md")
    pkg = Package(out)
    pkg.load(scan=True)
    for path in pkg.documents:
        text = (out / path).read_text("utf-8")
        for link in extract_links(text):
            target = resolve(path, link.target)
            if target.kind == "internal":
                assert (out / target.path).is_file(), (path, link.target)


def test_the_groups_are_the_same_on_every_build_and_a_rebuild_writes_nothing(
    grouped, tmp_path: Path
) -> None:
    source, out, _result = grouped
    other = tmp_path / "mail-kb"
    build(source, other, now=NOW, workers=1, index_budget=1000)
    assert _without_sources(tree(other)) == _without_sources(tree(out))
    manifest = (other / MANIFEST).read_bytes()
    stamps = {p: p.stat().st_mtime_ns for p in other.rglob("*") if p.is_file()}
    again = build(source, other, now=LATER, workers=1, index_budget=1000)
    assert (again.created, again.updated) == ([], [])
    assert (other / MANIFEST).read_bytes() == manifest
    assert {p: p.stat().st_mtime_ns for p in other.rglob("*") if p.is_file()} == stamps


def _without_sources(files: dict[str, bytes]) -> dict[str, bytes]:
    """The tree with ``sources[].resource`` lines (relative to where it was built) dropped."""
    return {
        path: b"\n".join(line for line in data.split(b"\n") if b"- resource: " not in line)
        for path, data in files.items()
    }


def test_an_edit_inside_a_sub_bundle_index_survives_a_rebuild(grouped, tmp_path: Path) -> None:
    source0, out0, _result = grouped
    source, out = tmp_path / "src", tmp_path / "mail-kb"
    shutil.copytree(source0, source)
    shutil.copytree(out0, out)
    index = out / "contoso-exchange/calendar/index.md"
    text = index.read_text("utf-8")
    line = next(line for line in text.splitlines() if line.startswith("* ["))
    edited = line.split(" - ", 1)[0] + " - A curator's own sentence for this entry."
    index.write_text(text.replace(line, edited), "utf-8")
    changed = next((source / "Contoso Exchange").glob("calendar-meeting-0.md"))
    changed.write_text(changed.read_text("utf-8") + "\nOne more line.\n", "utf-8")
    again = build(source, out, now=LATER, workers=1, index_budget=1000)
    assert again.updated == ["contoso-exchange/calendar/calendar-meeting-0.md"]
    assert edited in index.read_text("utf-8")


def test_a_budget_too_small_is_refused(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "src", {"a.md": "# A\n\nText of a.\n"})
    with pytest.raises(BuildError, match="too small"):
        build(source, tmp_path / "kb", index_budget=100)


def test_a_folder_with_no_words_to_group_by_is_split_by_title_range(tmp_path: Path) -> None:
    names = [f"Probe{n:02d}{chr(97 + n % 26)}" for n in range(70)]  # nothing shared twice
    files = {"Health sets/overview.md": article("Health sets", "What a health set is.", "# X\n")}
    for name in names:
        title = f"Troubleshooting {name} Health Set"
        files[f"Health sets/{name.lower()}.md"] = article(
            title, f"The {name} health set monitors one service of the server.", f"# {title}\n"
        )
    source = write_sources(tmp_path / "src", files)
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    top = parse_index((out / "index.md").read_text("utf-8"))  # the one folder is the root
    bundles = [e for e in top.entries if e.target.endswith("/")]
    # two runs of at most 60 entries, named by where they start and end; the bundle's
    # own page stays beside them
    assert [e.title for e in bundles] == ["Probe00a to Probe34i", "Probe35j to Probe69r"]
    assert [e.title for e in top.entries if not e.target.endswith("/")] == ["Health sets"]
    for entry in bundles:
        sub = parse_index((out / entry.target / "index.md").read_text("utf-8"))
        assert len(sub.entries) == 35
    assert any("split by title into 2 ranges" in note for note in result.notes)
    pkg = Package(out)
    pkg.load(scan=True)
    codes = {f.code for f in check(pkg, agent_ready=True, today=NOW.date()).findings}
    assert not codes & {"KAS046", "KAS047"}


def test_too_many_sub_folders_go_into_runs_by_name(tmp_path: Path) -> None:
    """A docs repository's 70 service folders side by side made an index of 70 entries
    (KAS047); they go into runs by name, with their images, and a rebuild keeps them."""
    files: dict[str, str | bytes] = {"intro.md": article("Intro", "What the site covers.", "")}
    for i in range(70):
        body = f"# Service {i}\n\n![Diagram](diagram.png)\n"
        files[f"services/svc{i:02d}/start.md"] = article(
            f"Start service {i}", f"How to start service {i}.", body
        )
        files[f"services/svc{i:02d}/diagram.png"] = b"\x89PNG\r\n\x1a\n"
    source = write_sources(tmp_path / "src", files)
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    runs = parse_index((out / "services/index.md").read_text("utf-8")).entries
    assert [e.title for e in runs] == ["Svc00 to Svc34", "Svc35 to Svc69"]
    assert (out / "services/svc00-to-svc34/svc00/start.md").is_file()
    assert (out / "services/svc35-to-svc69/svc69/diagram.png").is_file()
    assert any("70 sub-folders are more than one index lists" in n for n in result.notes)
    pkg = Package(out)
    pkg.load(scan=True)
    codes = {f.code for f in check(pkg, agent_ready=True, today=NOW.date()).findings}
    assert not codes & {"KAS046", "KAS047", "OKF120"}  # no broken link to a moved image
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    build(source, out, now=LATER, workers=1)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_landing_page_stays_beside_the_runs(tmp_path: Path) -> None:
    """PSScriptAnalyzer's ``rules/README.md`` ("List of PSScriptAnalyzer rules") was
    sorted into the second run, which it named "List to UseUTF8EncodingForHelpFile"."""
    names = [f"Probe{n:02d}{chr(97 + n % 26)}" for n in range(70)]
    files = {
        "intro.md": article("Introduction", "What the analyzer does and how.", "# I\n"),
        "rules/README.md": article("List of rules", "Every rule, one line each.", "# L\n"),
    }
    for name in names:
        files[f"rules/{name.lower()}.md"] = article(name, f"The {name} rule checks one thing.", "")
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    top = parse_index((out / "rules/index.md").read_text("utf-8"))
    assert [e.title for e in top.entries if not e.target.endswith("/")] == ["List of rules"]
    assert [e.title for e in top.entries if e.target.endswith("/")] == [
        "Probe00a to Probe34i",
        "Probe35j to Probe69r",
    ]


def test_a_folders_own_page_is_dated_by_its_folders_name() -> None:
    """A Docusaurus blog writes a post as ``2021-03-09-release/index.md``: its date is
    its folder's, where a page's own name carries none."""
    from kas_tui.features.importing.build_groups import _dated_name
    from kas_tui.text.year_runs import dated_year

    assert dated_year(_dated_name("blog/2021-03-09-release/index.md")) == "2021"
    assert dated_year(_dated_name("_posts/2014-05-06-jekyll-turns-2-0-0.markdown")) == "2014"
    assert dated_year(_dated_name("blog/2021-03-09-release/setup.md")) is None


def test_page_bundles_too_many_for_one_index_are_split_by_title(tmp_path: Path) -> None:
    """getzola/zola's 129 themes, each a page bundle (``themes/<name>/index.md``), were
    "split by title into 0 ranges" and listed in one index of 129 entries."""
    import itertools

    syllables = ["ba", "cu", "fe", "go", "ki", "lo", "mu", "ne", "po", "ri", "su", "ta"]
    names = ["".join(p) for p in itertools.product(syllables, repeat=3)][::13][:130]
    files: dict[str, str] = {
        "config.toml": 'base_url = "https://example.org"\ntitle = "Demo"\n',
        "content/themes/_index.md": '+++\ntitle = "Themes"\n+++\n',
    }
    for name in names:
        files[f"content/themes/{name}/index.md"] = (
            f'+++\ntitle = "{name.capitalize()}"\ndescription = "The {name} theme."\n+++\n\n'
            f"{name.capitalize()} lays out a blog.\n"
        )
    result = build(
        write_sources(tmp_path / "src", files),
        tmp_path / "kb",
        now=NOW,
        workers=1,
    )
    assert result.errors == 0
    assert not any("into 0 ranges" in n for n in result.notes), result.notes
    themes = parse_index((tmp_path / "kb" / "themes" / "index.md").read_text("utf-8"))
    assert 1 < len(themes.entries) <= 60
