"""Loading a package: the model, derived verdicts, and bad inputs that never stop a load."""

from __future__ import annotations

import datetime as dt
import errno
import os
import time
from pathlib import Path

import pytest

from kas_tui.core import loader, records
from kas_tui.core.okf.links import Target
from kas_tui.core.package import Package, PackageError, find_root
from kas_tui.features.check import check
from tests.helpers.acme import DOCUMENTS, FILES, make_package, snapshot
from tests.helpers.unprivileged import needs_unprivileged, run_unprivileged
from tests.helpers.waiting import wait_until


def file_line(root: Path, rel: str, needle: str) -> int:
    """1-based line of the first line of ``rel`` containing ``needle``."""
    for n, line in enumerate((root / rel).read_text().split("\n"), start=1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in {rel}")


@pytest.fixture
def pkg(package_root: Path) -> Package:
    return Package.open(package_root)


# --- the model -----------------------------------------------------------------------------


def test_open_reads_every_part(pkg, package_root):
    assert pkg.root == package_root
    assert pkg.name == "acme-kb"
    assert sorted(pkg.documents) == DOCUMENTS
    assert pkg.folders == ["", "billing", "incidents", "incidents/postmortems"]
    assert sorted(pkg.indexes) == ["", "billing", "incidents", "incidents/postmortems"]
    assert pkg.indexes["incidents"].path == "incidents/index.md"
    assert pkg.assets == ["billing/refund-matrix.csv"]
    assert pkg.skill.name == "acme-kb"
    assert pkg.skill.problems == []
    assert [g.date for g in pkg.log.groups] == ["2026-11-28", "2026-11-02"]
    assert pkg.indexes[""].index.frontmatter == {"okf_version": "0.2"}
    assert pkg.all_problems() == []
    assert pkg.load_seconds > 0


def test_documents_carry_their_frontmatter(pkg):
    doc = pkg.documents["incidents/incident-response.md"]
    assert doc.id == "incidents/incident-response"
    assert doc.folder == "incidents"
    assert doc.type == "Procedure"
    assert doc.title == "Incident response"
    assert doc.description.startswith("The end-to-end procedure")
    assert doc.tags == ["incidents", "response"]
    assert doc.status == "stable"
    assert doc.meta["owner"] == "team:sre"  # unknown keys are kept
    assert doc.meta["stale_after"] == "2027-03-18T00:00:00Z"
    assert doc.meta["verified"][1] == {"by": "process:docs-sync", "at": "2026-09-23T02:00:00Z"}
    assert doc.has_frontmatter and not doc.broken
    assert doc.body_line == FILES[doc.path].split("\n").index("---", 1) + 2 == 20
    assert doc.fingerprint.size == len(FILES["incidents/incident-response.md"].encode())
    assert pkg.documents["billing/chargebacks.md"].status == "draft"
    assert pkg.documents_in("billing") == [
        pkg.documents[p]
        for p in (
            "billing/chargebacks.md",
            "billing/invoice-disputes.md",
            "billing/refund-policy.md",
        )
    ]
    assert pkg.subfolders("incidents") == ["incidents/postmortems"]
    assert pkg.subfolders("") == ["billing", "incidents"]


def test_title_falls_back_to_the_file_name(package_root):
    (package_root / "billing" / "late-fees_policy.md").write_text("---\ntype: Policy\n---\n")
    doc = Package.open(package_root).documents["billing/late-fees_policy.md"]
    assert doc.title == "Late fees policy"
    assert doc.description == ""
    assert doc.tags == []
    assert doc.status == "stable"


def test_listings_of_the_fixture(pkg):
    got = [(item.entry.line, item.kind, item.path) for item in pkg.listings("")]
    assert got == [
        (9, "bundle", "incidents"),
        (10, "bundle", "billing"),
        (11, "document", "glossary.md"),
        (15, "external", "https://example.org/okf/v0.2"),
    ]
    got = [(item.kind, item.path) for item in pkg.listings("incidents")]
    assert got == [
        ("document", "incidents/severity-levels.md"),
        ("document", "incidents/incident-response.md"),
        ("document", "billing/refund-policy.md"),
        ("bundle", "incidents/postmortems"),
    ]
    assert [i.kind for i in pkg.listings("billing")] == ["document", "document"]  # /-rooted
    assert pkg.listings("no-such-folder") == []


def test_listing_kinds(package_root):
    extra = (
        "* [Gone](gone.md) - A missing document.\n"
        "* [Gone folder](gone/) - A missing folder.\n"
        "* [Escape](../../etc/passwd) - Leaves the package.\n"
        "* [Rooted](/etc/passwd) - A broken internal link.\n"
        "* [Log](log.md) - The log.\n"
        "* [Matrix](billing/refund-matrix.csv) - An asset.\n"
        "* [Mail](mailto:docs@acme.example) - Mail the docs team.\n"
        "* [Postmortems](/incidents/postmortems/index.md) - Nested bundle, rooted.\n"
    )
    with open(package_root / "index.md", "a", encoding="utf-8") as handle:
        handle.write(extra)
    pkg = Package.open(package_root)
    got = {item.entry.title: (item.kind, item.path) for item in pkg.listings("")}
    assert got["Gone"] == ("missing", "gone.md")
    assert got["Gone folder"] == ("missing", "gone")
    assert got["Escape"] == ("outside", "../../etc/passwd")
    assert got["Rooted"] == ("missing", "etc/passwd")
    assert got["Log"] == ("reserved", "log.md")
    assert got["Matrix"] == ("asset", "billing/refund-matrix.csv")
    assert got["Mail"] == ("external", "mailto:docs@acme.example")
    assert got["Postmortems"] == ("bundle", "incidents/postmortems")
    assert pkg.listed_by("incidents/postmortems") == ["index.md", "incidents/index.md"]


def test_listing_of_a_missing_folder_index_is_missing(package_root):
    with open(package_root / "index.md", "a", encoding="utf-8") as handle:
        handle.write("* [Gone](gone/index.md) - A folder that does not exist.\n")
    pkg = Package.open(package_root)
    item = next(i for i in pkg.listings("") if i.entry.title == "Gone")
    assert item.kind == "missing"
    assert pkg.listed_by("gone") == []


def test_listed_by_and_unlisted(pkg):
    assert sorted(pkg.listed_by("billing/refund-policy.md")) == [
        "billing/index.md",
        "incidents/index.md",
    ]
    assert pkg.listed_by("glossary.md") == ["index.md"]
    assert pkg.listed_by("incidents") == ["index.md"]
    assert pkg.listed_by("billing/chargebacks.md") == []
    assert pkg.unlisted() == ["billing/chargebacks.md"]


def test_backlinks(pkg, package_root):
    def back(rel):
        return sorted((source, link.line) for source, link in pkg.backlinks(rel))

    # the [Glossary](/glossary.md) in incident-response's code block is not a link
    assert back("glossary.md") == [
        (
            "incidents/severity-levels.md",
            file_line(package_root, "incidents/severity-levels.md", "../glossary.md"),
        )
    ]
    assert back("billing/refund-policy.md") == [
        (
            "billing/invoice-disputes.md",
            file_line(package_root, "billing/invoice-disputes.md", "refund-policy.md)"),
        ),
        (
            "incidents/incident-response.md",
            file_line(package_root, "incidents/incident-response.md", "#sla-credits"),
        ),
    ]
    assert [s for s, _ in pkg.backlinks("incidents/incident-response.md")] == [
        "billing/refund-policy.md",
        "incidents/severity-levels.md",
        "incidents/postmortems/2026-04-17-search-outage.md",
    ]
    assert back("billing/chargebacks.md") == []


def test_links_of_a_document(pkg):
    links = pkg.links("incidents/incident-response.md")
    assert [(link.target, target.kind, target.path) for link, target in links] == [
        ("/incidents/severity-levels.md", "internal", "incidents/severity-levels.md"),
        (
            "postmortems/2026-04-17-search-outage.md",
            "internal",
            "incidents/postmortems/2026-04-17-search-outage.md",
        ),
        ("../billing/refund-policy.md#sla-credits", "internal", "billing/refund-policy.md"),
        ("https://status.acme.example", "external", "https://status.acme.example"),
    ]
    assert pkg.body("glossary.md").startswith("\n# Glossary\n")


def test_symlink_leaving_the_root_is_outside(tmp_path):
    root = make_package(tmp_path)
    (tmp_path / "secret.md").write_text("---\ntype: Secret\n---\n")
    os.symlink(tmp_path / "secret.md", root / "billing" / "escape.md")
    pkg = Package.open(root)
    assert "billing/escape.md" not in pkg.documents
    (problem,) = pkg.problems_of("billing/escape.md")
    assert "leaves the package" in problem.message
    assert pkg.resolve("billing/index.md", "escape.md") == Target("outside", "billing/escape.md")
    with pytest.raises(PermissionError):
        pkg.read_text("billing/escape.md")


# --- derived verdicts ------------------------------------------------------------------------


def test_trust_tier_of_the_fixture(pkg):
    tiers = {path: doc.trust_tier for path, doc in pkg.documents.items()}
    assert tiers == {
        "glossary.md": "human-reviewed",
        "incidents/incident-response.md": "human-reviewed",
        "incidents/severity-levels.md": "machine-confirmed",
        "incidents/postmortems/2026-04-17-search-outage.md": "unverified",
        "billing/refund-policy.md": "human-reviewed",
        "billing/invoice-disputes.md": "human-reviewed",  # a bare mapping
        "billing/chargebacks.md": "unverified",
    }


TODAY = dt.date(2026, 12, 1)


def test_staleness_of_the_fixture(pkg):
    got = {p: d.staleness(TODAY).describe() for p, d in pkg.documents.items()}
    assert got["incidents/severity-levels.md"] == "fresh for 30 days"
    assert got["incidents/postmortems/2026-04-17-search-outage.md"] == "no stale_after"
    later = pkg.documents["incidents/severity-levels.md"].staleness(dt.date(2027, 1, 5))
    assert later.describe() == "stale since 5 days"


# --- find_root -----------------------------------------------------------------------------


def test_find_root(tmp_path):
    root = make_package(tmp_path / "skills")
    assert find_root(root) == root
    assert find_root(root / "incidents" / "postmortems") == root
    assert find_root(root / "incidents" / "index.md") == root
    assert find_root(tmp_path / "skills") == root  # a skills folder holding one skill
    assert Package.open(root / "billing").root == root


def test_find_root_with_several_skills(tmp_path, package_factory):
    package_factory("acme-kb")
    beta = package_factory("beta-kb")
    assert (beta / "SKILL.md").read_text().startswith("---\nname: beta-kb\n")
    with pytest.raises(PackageError) as info:
        find_root(tmp_path)
    assert "acme-kb" in str(info.value) and "beta-kb" in str(info.value)


def test_find_root_of_a_missing_path(tmp_path):
    with pytest.raises(PackageError, match="no such file or folder"):
        find_root(tmp_path / "nowhere")
    with pytest.raises(PackageError):
        Package.open(tmp_path / "nowhere")


def test_find_root_without_a_skill_is_the_folder_itself(tmp_path):
    (tmp_path / "plain").mkdir()
    assert find_root(tmp_path / "plain") == tmp_path / "plain"


def test_a_lowercase_skill_md_is_the_skill_as_skills_ref_finds_it(tmp_path):
    root = make_package(tmp_path / "skills")
    (root / "SKILL.md").rename(root / "skill.md")
    (root / "notes").mkdir()
    (root / "notes" / "skill.md").write_text("---\ntype: Note\n---\nA note.\n")
    assert find_root(root / "incidents") == root
    assert find_root(tmp_path / "skills") == root  # a skills folder holding one skill
    pkg = Package.open(root)
    assert pkg.skill_file == "skill.md" and pkg.skill is not None and pkg.skill.name == root.name
    assert "skill.md" not in pkg.documents  # the skill, not a concept
    assert "notes/skill.md" in pkg.documents  # only the root's skill.md is the skill
    report = check(pkg, agent_ready=True, today=dt.date(2026, 12, 1))
    found = [(f.code, f.path, f.severity) for f in report.findings]
    assert ("KAS011", "skill.md", "warning") in found
    assert not any(code in ("KAS001", "OKF001", "OKF004") for code, _, _ in found)
    hint = next(f for f in report.findings if f.code == "KAS011").hint
    assert "Rename skill.md to SKILL.md" in hint
    # beside a SKILL.md, skill.md is ignored by skills-ref: neither skill nor document
    (root / "SKILL.md").write_text((root / "skill.md").read_text())
    pkg = Package.open(root)
    assert pkg.skill_file == "SKILL.md" and "skill.md" not in pkg.documents
    report = check(pkg, agent_ready=True, today=dt.date(2026, 12, 1))
    assert [f.path for f in report.findings if f.code == "KAS011"] == ["skill.md"]


# --- bad inputs: each a clear problem on that file, the rest loads, nothing changes ----------


def alias_bomb() -> str:
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * 9) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    return "\n".join(lines) + "\n"


BAD_FILES = {
    "malformed-yaml": (
        b"---\ntype: Note\ntitle: a: b\n---\nbody\n",
        "frontmatter",
        3,
        "invalid YAML",
    ),
    "not-a-mapping": (b"---\n- a\n- b\n---\nbody\n", "frontmatter", 2, "must be a YAML mapping"),
    "unterminated": (b"---\ntype: Note\ntitle: x\n\nbody\n", "frontmatter", 1, "never closed"),
    "latin-1": (
        "---\ntype: Note\ntitle: café\n---\n".encode("latin-1"),
        "encoding",
        3,
        "not valid UTF-8",
    ),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "encoding", 3, "NUL bytes"),
    "empty": (b"", "frontmatter", 1, "empty file"),
    "whitespace": (b"  \n\n", "frontmatter", 1, "empty file"),
    "no-frontmatter": (b"# Just a title\n", "frontmatter", 1, "no YAML frontmatter"),
    "no-type": (b"---\ntitle: Typeless\n---\n", "required", 2, "missing 'type'"),
    "alias-bomb": (
        ("---\ntype: Note\n" + alias_bomb() + "---\n").encode(),
        "frontmatter",
        2,
        "alias",
    ),
    "unhashable-key": (b"---\ntype: Note\n? [a, b]\n: c\n---\n", "frontmatter", 3, "unhashable"),
}


def assert_rest_loads(pkg: Package, *bad: str) -> None:
    """Every fixture file loaded cleanly; problems exist only on the ``bad`` paths."""
    for rel in DOCUMENTS:
        doc = pkg.documents[rel]
        assert doc.has_frontmatter, rel
        assert doc.problems == (), rel
    assert sorted(pkg.indexes) == ["", "billing", "incidents", "incidents/postmortems"]
    assert pkg.skill.name == "acme-kb"
    assert pkg.log.groups
    assert {p.path for p in pkg.all_problems()} <= set(bad)


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_document_is_a_problem_on_that_file(tmp_path, case):
    data, code, line, words = BAD_FILES[case]
    root = make_package(tmp_path)
    rel = f"incidents/{case}.md"
    (root / rel).write_bytes(data)
    before = snapshot(root)
    started = time.perf_counter()
    pkg = Package.open(root)
    assert time.perf_counter() - started < 2
    problems = pkg.problems_of(rel)
    assert len(problems) == 1, problems
    (problem,) = problems
    assert problem.path == rel
    assert problem.code == code
    assert problem.line == line
    assert problem.severity == "error"
    assert words in problem.message
    assert problem.hint
    assert str(problem).startswith(f"{rel}:{line}: ")
    assert rel in pkg.documents
    assert_rest_loads(pkg, rel)
    assert snapshot(root) == before


@pytest.mark.parametrize("compact", [False, True], ids=["cli", "tui"])
@pytest.mark.parametrize("depth", [90, 950, 5000])
def test_deeply_nested_yaml_never_stops_a_load(tmp_path, depth, compact, monkeypatch):
    """Nesting past the limit is a problem on the file, never a RecursionError: not in
    the alias-bomb guard, not when the frontmatter is pickled (the metadata cache, the
    TUI's compact frontmatter: 950 levels once broke both)."""
    monkeypatch.setattr(records, "_COMPACT", compact)
    root = make_package(tmp_path)
    rel = "incidents/deep.md"
    nested = "[" * depth + "*x" + "]" * depth
    (root / rel).write_text(f"---\ntype: Note\nb: &x 1\na: {nested}\n---\n")
    try:
        pkg = Package.open(root, cache=True)
        pkg.documents[rel].meta  # noqa: B018 - decoded on first look in compact mode
    except RecursionError:
        pkg = None
    if pkg is None:  # fail outside the handler: no 2000-frame traceback
        pytest.fail("RecursionError escaped from Package.open", pytrace=False)
    problems = pkg.problems_of(rel)
    if depth < 100:
        assert problems == []
        assert pkg.documents[rel].meta["type"] == "Note"
    else:
        ((problem),) = problems
        assert problem.code == "frontmatter"
        assert "nest" in problem.message
    assert_rest_loads(pkg, rel)


def test_an_autolink_leaving_the_package_is_reported(tmp_path):
    root = make_package(tmp_path)
    rel = "billing/autolink.md"
    (root / rel).write_text("---\ntype: Note\n---\n\nSee <file:///etc/passwd>.\n")
    pkg = Package.open(root)
    (problem,) = pkg.problems_of(rel)
    assert (problem.code, problem.line) == ("link-outside", 5)
    assert "file:///etc/passwd" in problem.message


def test_dashes_inside_a_value_load_fine(tmp_path):
    root = make_package(tmp_path)
    (root / "incidents" / "dashes.md").write_text(
        "---\ntype: Note\ntitle: a --- b\n---\n---\nbody\n"
    )
    pkg = Package.open(root)
    doc = pkg.documents["incidents/dashes.md"]
    assert doc.problems == ()
    assert doc.meta == {"type": "Note", "title": "a --- b"}
    assert doc.body_line == 5
    assert pkg.body("incidents/dashes.md") == "---\nbody\n"


def test_crlf_bom_document_loads(tmp_path):
    root = make_package(tmp_path)
    text = FILES["glossary.md"].replace("\n", "\r\n")
    (root / "glossary.md").write_bytes(b"\xef\xbb\xbf" + text.encode())
    pkg = Package.open(root)
    doc = pkg.documents["glossary.md"]
    assert doc.problems == ()
    assert doc.title == "Glossary"
    assert doc.meta["stale_after"] == "2027-02-01"
    assert [s for s, _ in pkg.backlinks("incidents/severity-levels.md")].count("glossary.md") == 1


def test_twenty_megabyte_document(tmp_path):
    root = make_package(tmp_path)
    head = "---\ntype: Reference\ntitle: Big export\ntags: [big]\n---\n"
    line = "lorem ipsum dolor sit amet, consectetur adipiscing elit [x](../../../x.md)\n"
    data = (head + line * (20 * 1024 * 1024 // len(line) + 1)).encode()
    assert len(data) > 20 * 1024 * 1024
    (root / "billing" / "big.md").write_bytes(data)
    before = snapshot(root)
    started = time.perf_counter()
    pkg = Package.open(root)
    assert time.perf_counter() - started < 2
    doc = pkg.documents["billing/big.md"]
    assert doc.meta == {"type": "Reference", "title": "Big export", "tags": ["big"]}
    assert doc.has_frontmatter
    (problem,) = doc.problems
    assert (problem.code, problem.severity) == ("large-file", "warning")
    assert "MB" in problem.message
    assert doc.fingerprint.size == len(data)
    assert doc.fingerprint.digest is None  # not read whole
    assert_rest_loads(pkg, "billing/big.md")
    assert snapshot(root) == before


def test_big_document_without_closing_delimiter(tmp_path):
    root = make_package(tmp_path)
    data = b"---\ntype: Reference\n" + b"x" * (loader.HEAD_BYTES * 2) + b"\n"
    (root / "billing" / "open.md").write_bytes(data)
    pkg = Package.open(root)
    (problem,) = pkg.problems_of("billing/open.md")
    assert problem.code == "frontmatter"
    assert problem.line == 1


def test_symlink_loops(tmp_path):
    root = make_package(tmp_path)
    os.symlink("b.md", root / "incidents" / "a.md")
    os.symlink("a.md", root / "incidents" / "b.md")
    os.symlink("..", root / "incidents" / "parent")
    os.symlink("missing-target.md", root / "incidents" / "dangling.md")
    before = snapshot(root)
    started = time.perf_counter()
    pkg = Package.open(root)
    assert time.perf_counter() - started < 2
    for rel, words in [
        ("incidents/a.md", "symlink loop"),
        ("incidents/b.md", "symlink loop"),
        ("incidents/parent", "symlink loop"),
        ("incidents/dangling.md", "broken symlink"),
    ]:
        (problem,) = pkg.problems_of(rel)
        assert problem.code == "symlink"
        assert words in problem.message
        assert rel not in pkg.documents
    assert "incidents/parent" not in pkg.folders
    assert_rest_loads(
        pkg, "incidents/a.md", "incidents/b.md", "incidents/parent", "incidents/dangling.md"
    )
    assert snapshot(root) == before


def test_symlinked_folder_inside_the_package_is_not_followed(tmp_path):
    root = make_package(tmp_path)
    os.symlink("billing", root / "money")
    pkg = Package.open(root)
    assert "money" not in pkg.folders
    assert not any(p.startswith("money/") for p in pkg.documents)
    (problem,) = pkg.problems_of("money")
    assert problem.severity == "info"


@needs_unprivileged
def test_unreadable_file_chmod(tmp_path):
    """A real mode 000 file (as root: loaded in a process without root's overrides)."""
    root = make_package(tmp_path)
    secret = root / "billing" / "secret.md"
    secret.write_text("---\ntype: Note\n---\n")
    secret.chmod(0)
    script = (
        "from kas_tui.core.package import Package\n"
        f"pkg = Package.open({str(root)!r})\n"
        "print([(p.code, p.message) for p in pkg.problems_of('billing/secret.md')])\n"
        "print(sorted(p for p, d in pkg.documents.items() if d.problems))\n"
    )
    try:
        result = run_unprivileged("-c", script)
    finally:
        secret.chmod(0o644)
    assert result.returncode == 0, result.stderr
    problems, broken = result.stdout.splitlines()
    assert problems == "[('unreadable', 'cannot read: permission denied')]"
    assert broken == "['billing/secret.md']"  # the rest loads


def test_unreadable_document(tmp_path, monkeypatch):
    root = make_package(tmp_path)
    real_open = os.open

    def guarded_open(path, *args, **kwargs):
        if str(path).endswith("refund-policy.md"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    before = snapshot(root)
    monkeypatch.setattr(loader.os, "open", guarded_open)
    pkg = Package.open(
        root, reader=lambda r, paths, scan, sink: [loader.read_document(r, p) for p in paths]
    )
    monkeypatch.undo()
    (problem,) = pkg.problems_of("billing/refund-policy.md")
    assert (problem.code, problem.severity) == ("unreadable", "error")
    assert problem.message == "cannot read: permission denied"
    assert pkg.documents["billing/refund-policy.md"].broken
    others = [p for p in DOCUMENTS if p != "billing/refund-policy.md"]
    assert all(pkg.documents[p].problems == () for p in others)
    assert snapshot(root) == before


def test_unreadable_index_and_folder(tmp_path, monkeypatch):
    root = make_package(tmp_path)
    real_read = loader.read_regular
    real_scandir = os.scandir

    def read_regular(path, **options):
        if Path(path).name == "index.md" and Path(path).parent.name == "billing":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_read(path, **options)

    def scandir(path="."):
        if str(path).endswith("postmortems"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(loader, "read_regular", read_regular)  # how the loader reads a file
    monkeypatch.setattr(os, "scandir", scandir)
    pkg = Package.open(root)
    (problem,) = pkg.problems_of("billing/index.md")
    assert problem.code == "unreadable"
    assert pkg.listings("billing") == []
    (problem,) = pkg.problems_of("incidents/postmortems")
    assert problem.message == "cannot list folder: permission denied"
    assert "incidents/postmortems/2026-04-17-search-outage.md" not in pkg.documents
    assert pkg.documents["incidents/incident-response.md"].problems == ()


def test_link_escaping_the_root_is_a_warning_with_its_line(tmp_path):
    root = make_package(tmp_path)
    rel = "incidents/escape.md"
    (root / rel).write_text(
        "---\ntype: Note\n---\n\nSee [passwd](../../etc/passwd) and [root](/etc/passwd).\n"
        "\n```\n[in code](../../../etc/shadow)\n```\n"
        "\nAlso [a file URL](file:///etc/hosts),\n<file:///etc/group> and"
        " [a drive](C:\\Windows\\win.ini).\n"
    )
    before = snapshot(root)
    pkg = Package.open(root)
    problems = pkg.problems_of(rel)
    assert [(p.code, p.severity, p.line) for p in problems] == [
        ("link-outside", "warning", 5),
        ("link-outside", "warning", 11),
        ("link-outside", "warning", 12),
        ("link-outside", "warning", 12),
    ]
    assert "../../etc/passwd" in problems[0].message
    assert "file:///etc/hosts" in problems[1].message
    kinds = [(link.target, target.kind) for link, target in pkg.links(rel)]
    assert kinds[:2] == [("../../etc/passwd", "outside"), ("/etc/passwd", "internal")]
    assert [kind for _, kind in kinds[2:]] == ["outside"] * 3
    assert pkg.backlinks("etc/passwd")[0][0] == rel  # merely a broken internal link
    assert snapshot(root) == before


def test_titles_with_brackets_and_backslashes_load_verbatim(tmp_path):
    root = make_package(tmp_path)
    title = "[bold] a [x] ] [ \\ b \\[y\\]"
    (root / "billing" / "odd.md").write_text(
        f"---\ntype: Note\ntitle: '{title}'\ndescription: \"[draft] \\\\ done\"\n---\n"
    )
    pkg = Package.open(root)
    doc = pkg.documents["billing/odd.md"]
    assert doc.problems == ()
    assert doc.title == title
    assert doc.description == "[draft] \\ done"


def test_bad_index_log_and_skill_files(tmp_path):
    root = make_package(tmp_path)
    (root / "billing" / "index.md").write_text("---\ntitle: x\n---\n- [A](a.md) - a\n")
    (root / "index.md").write_text('---\nokf_version: "0.2"\nauthor: me\n---\n# Root\n')
    (root / "log.md").write_text("# Log\n\n## 2026-01-01\n* a\n\n## 2026-02-01\n* b\n\n## soon\n")
    (root / "SKILL.md").write_text("name: acme-kb\n")
    before = snapshot(root)
    pkg = Package.open(root)
    (problem,) = pkg.problems_of("billing/index.md")
    assert (problem.code, problem.line) == ("index", 1)
    assert "only the root index.md" in problem.message
    (problem,) = pkg.problems_of("index.md")
    assert "not author" in problem.message
    assert [(p.code, p.line) for p in pkg.problems_of("log.md")] == [
        ("log-date", 9),
        ("log-order", 6),
    ]
    (problem,) = pkg.problems_of("SKILL.md")
    assert problem.message == "SKILL.md must start with YAML frontmatter (---)"
    assert all(pkg.documents[p].problems == () for p in DOCUMENTS)
    assert snapshot(root) == before


def test_non_utf8_index_is_a_problem(tmp_path):
    root = make_package(tmp_path)
    (root / "incidents" / "index.md").write_bytes("# Caf\xe9\n".encode("latin-1"))
    pkg = Package.open(root)
    (problem,) = pkg.problems_of("incidents/index.md")
    assert (problem.code, problem.line) == ("encoding", 1)
    assert pkg.listings("incidents") == []
    assert pkg.unlisted() == sorted(
        ["billing/chargebacks.md", "incidents/incident-response.md", "incidents/severity-levels.md"]
    )


def test_hidden_files_and_folders_are_ignored(tmp_path):
    root = make_package(tmp_path)
    (root / ".git").mkdir()
    (root / ".git" / "broken.md").write_text("not frontmatter")
    (root / "billing" / ".draft.md").write_text("not frontmatter")
    pkg = Package.open(root)
    assert sorted(pkg.documents) == DOCUMENTS
    assert pkg.all_problems() == []


def test_reload_file_after_an_outside_change(pkg, package_root):
    path = package_root / "glossary.md"
    path.write_text(FILES["glossary.md"].replace("title: Glossary", "title: Terms"))
    pkg.reload_file("glossary.md")
    assert pkg.documents["glossary.md"].title == "Terms"
    path.unlink()
    pkg.reload_file("glossary.md")
    assert "glossary.md" not in pkg.documents
    assert next(i for i in pkg.listings("") if i.entry.title == "Glossary").kind == "missing"


# --- the parallel reader -------------------------------------------------------------------


@pytest.mark.parametrize("scan", [False, True])
def test_parallel_reader_gives_the_sequential_results(tmp_path, monkeypatch, scan):
    root = tmp_path / "many"
    paths = []
    for i in range(320):
        rel = f"b{i % 4}/doc-{i:03d}.md"
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        if i % 50 == 7:
            text = "---\ntype: [\n---\n"
        elif i % 50 == 8:
            text = "---\ntitle: no type\n---\n"
        else:
            text = (
                f"---\ntype: Note\ntitle: Doc {i}\n"
                f"stale_after: 2026-01-{i % 28 + 1:02d}T00:00:00Z\n---\n"
                f"See [far](../../../x{i}.md).\n"
            )
        (root / rel).write_text(text)
        paths.append(rel)
    assert len(paths) > loader.PARALLEL_MIN
    contexts = []
    real_get_context = loader.multiprocessing.get_context

    def spy(method=None):
        contexts.append(method)
        return real_get_context(method)

    sequential = loader.read_documents(root, paths, workers=1, scan=scan)
    monkeypatch.setattr(loader.multiprocessing, "get_context", spy)
    parallel = loader.read_documents(root, paths, workers=2, scan=scan)
    assert contexts == ["fork"]  # the pool really ran
    assert parallel == sequential
    assert [r.path for r in parallel] == paths
    assert sum(1 for r in parallel if r.problems) == len(paths)  # every doc has a problem
    assert type(parallel[0].frontmatter["stale_after"]).__name__ == "Timestamp"
    if scan:  # the links crossed the pipe too
        assert parallel[-1].scan.links[0][0] == "../../../x319.md"


def test_parallel_reader_runs_meanwhile_once_in_this_process_while_workers_read(tmp_path):
    root = tmp_path / "many"
    root.mkdir()
    paths = [f"doc-{i:03d}.md" for i in range(loader.PARALLEL_MIN + 200)]
    for rel in paths:
        (root / rel).write_text(f"---\ntype: Note\ntitle: {rel}\n---\nBody.\n")
    calls = []

    def meanwhile():
        calls.append(os.getpid())
        # busy here until a worker has claimed a chunk: the workers read meanwhile
        wait_until(lambda: loader._JOB is None or loader._JOB[3].value > 0)

    reads = loader.read_documents(root, paths, workers=2, meanwhile=meanwhile)
    assert calls == [os.getpid()]
    assert [r.frontmatter["title"] for r in reads] == paths  # in path order, whoever read them
    single = []
    loader.read_documents(root, paths[:3], workers=2, meanwhile=lambda: single.append(1))
    assert single == [1]  # too few for workers: still run once


def test_bundles_are_folders_holding_documents_not_asset_folders(tmp_path):
    root = make_package(tmp_path)
    (root / "references").mkdir()
    (root / "references" / "export.csv").write_text("a,b\n")
    (root / "deep" / "er").mkdir(parents=True)
    (root / "deep" / "er" / "doc.md").write_text("---\ntype: Note\n---\n")
    pkg = Package.open(root)
    bundles = pkg.bundles()
    assert "references" not in bundles and "references/export.csv" in pkg.assets
    assert {"", "deep", "deep/er"} <= bundles


def test_reload_file_updates_listings_only_when_a_document_comes_or_goes(tmp_path, monkeypatch):
    root = make_package(tmp_path)
    pkg = Package.open(root)
    folder, listing = next(
        (f, item) for f in pkg.indexes for item in pkg.listings(f) if item.kind == "document"
    )
    calls = []
    real = pkg._resolve_listings
    monkeypatch.setattr(pkg, "_resolve_listings", lambda *a: calls.append(a) or real(*a))
    path = root / listing.path
    path.write_text(path.read_text().replace("title:", "title: Edited", 1))
    pkg.reload_file(listing.path)
    assert calls == [], "an edit of a listed document does not re-resolve every index"
    text = path.read_text()
    path.unlink()
    pkg.reload_file(listing.path)
    kinds = {item.path: item.kind for item in pkg.listings(folder)}
    assert kinds[listing.path] == "missing"
    path.write_text(text)
    pkg.reload_file(listing.path)
    assert {item.path: item.kind for item in pkg.listings(folder)}[listing.path] == "document"
    assert len(calls) == 2


def test_links_are_markdown_its_and_a_folder_symlink_leaving_is_outside(tmp_path, demo):
    """A document's links come from its body scan: the same as markdown-it's; the
    symlink check remembers each folder's realpath, and a link through a symlinked
    folder leaving the package is still outside."""
    from kas_tui.core.okf.links import extract_links

    for rel, doc in demo.documents.items():
        expected = extract_links(demo.body(rel), first_line=doc.body_line)
        assert [link for link, _ in demo.links(rel)] == expected, rel
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.md").write_text("secret\n")
    os.symlink(outside, demo.root / "oncall" / "away")
    assert demo.resolve("oncall/index.md", "away/x.md").kind == "outside"
    assert demo.resolve("oncall/index.md", "away/x.md").kind == "outside", "remembered"
    assert demo.resolve("oncall/index.md", "oncall-faq.md").kind == "internal"


def test_an_index_counts_its_own_entries_apart_from_the_pages_it_lists_from_deeper(
    tmp_path: Path,
) -> None:
    """A root that also lists a chapter's pages has as many entries of its own as
    before: a bundle's description has the same room (KAS045, the entry editor)."""
    (tmp_path / "guide").mkdir()
    for name in ("a", "b"):
        (tmp_path / "guide" / f"{name}.md").write_text(
            f"---\ntype: Guide\ntitle: {name}\ndescription: Page {name} of the guide.\n---\n",
            encoding="utf-8",
        )
    (tmp_path / "top.md").write_text(
        "---\ntype: Guide\ntitle: Top\ndescription: The top page.\n---\n", encoding="utf-8"
    )
    (tmp_path / "index.md").write_text(
        "# Root\n\n* [Top](top.md) - The top page.\n* [Guide](guide/) - The guide.\n\n"
        "## Guide\n\n* [a](guide/a.md) - Page a of the guide.\n"
        "* [b](guide/b.md) - Page b of the guide.\n",
        encoding="utf-8",
    )
    (tmp_path / "guide" / "index.md").write_text(
        "# Guide\n\n* [a](a.md) - Page a of the guide.\n* [b](b.md) - Page b of the guide.\n",
        encoding="utf-8",
    )
    pkg = Package(tmp_path)
    pkg.load()
    assert len(pkg.indexes[""].listings) == 4
    assert pkg.indexes[""].own_listings() == 2
    assert pkg.indexes["guide"].own_listings() == 2
    # a bundle's room is measured by the bundles its parent lists (KAS045)
    assert pkg.indexes[""].own_listings("bundle") == 1
    assert pkg.indexes["guide"].own_listings("bundle") == 1  # none: at least one
