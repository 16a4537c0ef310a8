"""The agent walk: catalog entry, tools, reachability, budget, trajectories and replay."""

# ruff: noqa: E501  (package texts hold long index entries, as real packages do)

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kas_tui.core.okf.text import decode
from kas_tui.core.package import Package
from kas_tui.core.store import StoreError
from kas_tui.features.agent import (
    LISTDIR,
    PEEK,
    READFILE,
    SUBMIT,
    NotRevealedError,
    Sandbox,
    Walk,
    WalkError,
    catalog_entry,
    escape_xml,
    parse_trajectory,
    read_trajectory,
    render_catalog,
    replay,
    replay_file,
    run_tool,
    trajectory_jsonl,
    write_trajectory,
)
from kas_tui.features.agent.skill_catalog import CatalogEntry
from kas_tui.features.agent.tools import call_text
from kas_tui.text.tokens import estimate_tokens
from tests.helpers.acme import make_package

DEMO = Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook"


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def doc(title: str, body: str = "", extra: str = "") -> str:
    return f"---\ntype: Reference\ntitle: {title}\ndescription: About {title.lower()}.\n{extra}---\n\n# {title}\n{body}"


TINY = {
    "SKILL.md": "---\nname: tiny-kb\ndescription: A tiny package. Use when testing the agent walk.\n---\n\n# Tiny\n\nStart at `index.md`; the `status` field says how far to trust a document.\n",
    "index.md": "# Tiny\n\n* [Guide](guide/) - How to begin and where the notes are.\n",
    "guide/index.md": "# Guide\n\n* [Intro](intro.md) - Where to begin.\n",
    "guide/intro.md": doc(
        "Intro",
        "See [the relative note](../notes/rel.md), [the rooted note](/notes/rooted.md#part),\n"
        "[this section](#intro), [the web](https://example.org) and [a secret](../../outside.md).\n\n"
        "```text\nNot a link: [hidden](/notes/hidden.md)\n```\n",
    ),
    "notes/rel.md": doc("Rel"),
    "notes/rooted.md": doc("Rooted"),
    "notes/hidden.md": doc("Hidden"),
    "notes/unnamed.md": doc("Unnamed"),
}


@pytest.fixture
def tiny(tmp_path: Path) -> Package:
    return Package.open(write(tmp_path / "tiny-kb", TINY))


@pytest.fixture
def acme(tmp_path: Path) -> Package:
    return Package.open(make_package(tmp_path))


@pytest.fixture
def demo() -> Package:
    return Package.open(DEMO)


def paths(reach_part: dict) -> set[str]:
    return set(reach_part)


# --- the catalog entry -----------------------------------------------------------------


def test_catalog_entry_is_the_available_skills_block(demo):
    entry = catalog_entry(demo)
    description = demo.skill.description
    assert entry.text == (
        "<available_skills>\n<skill>\n<name>orbit-handbook</name>\n"
        f"<description>{description}</description>\n"
        f"<location>{DEMO / 'SKILL.md'}</location>\n</skill>\n</available_skills>"
    )
    assert entry.discoverable
    assert entry.root == str(DEMO)
    assert entry.tokens == estimate_tokens(entry.text) == -(-len(entry.text) // 4)


def test_catalog_escapes_xml_special_characters(tmp_path):
    root = make_package(tmp_path, "amp-kb")
    skill = root / "SKILL.md"
    odd = 'R&D <ops> handbook of "Acme"'
    skill.write_text(skill.read_text().replace("Operations handbook of Acme", odd, 1))
    entry = catalog_entry(Package.open(root))
    assert '<description>R&amp;D &lt;ops&gt; handbook of "Acme" -' in entry.text
    assert escape_xml("a<b>&c") == "a&lt;b&gt;&amp;c"
    assert "<ops>" not in entry.text


def test_catalog_location_override_and_several_entries(acme):
    entry = catalog_entry(acme, "/home/me/.claude/skills/acme-kb/SKILL.md")
    assert "<location>/home/me/.claude/skills/acme-kb/SKILL.md</location>" in entry.text
    other = CatalogEntry("b-kb", "B.", "/x/b-kb/SKILL.md")
    block = render_catalog([entry, other])
    assert block.count("<skill>") == 2 and block.startswith("<available_skills>\n<skill>\n")
    assert render_catalog([]) == "<available_skills>\n</available_skills>"


def test_catalog_without_skill_md_falls_back_to_the_folder_name(tmp_path):
    root = make_package(tmp_path, "no-skill")
    (root / "SKILL.md").unlink()
    entry = catalog_entry(Package.open(root))
    assert entry.name == "no-skill" and not entry.discoverable
    walk = Walk(Package.open(root))
    step = walk.readfile("SKILL.md")
    assert step.status == "missing" and step.text.startswith("Error: no such file")


# --- a full walk on the demo package ---------------------------------------------------


def test_full_demo_walk_exports_and_replays_identically(demo, tmp_path):
    walk = Walk(demo, peek=True)
    assert [a.label for a in walk.available_actions()] == [
        "activate the skill (read SKILL.md)",
        "list the package root",
        "submit an answer",
    ]
    sla = "billing-support/refunds/sla-credits.md"
    steps = [
        walk.readfile("SKILL.md"),
        walk.readfile("/index.md"),
        walk.readfile("billing-support/index.md"),
        walk.listdir("billing-support/refunds"),
        walk.readfile("billing-support/refunds/index.md"),
        walk.peek(sla),
        walk.readfile(str(DEMO / sla)),
        walk.readfile("references/slo-targets.csv"),
    ]
    assert all(step.ok and step.revealed for step in steps)
    for step in steps:
        if step.tool == READFILE:
            assert step.text == decode((DEMO / step.path).read_bytes()).text
    assert steps[3].text == (
        "index.md\nissuing-a-refund.md\nrefund-policy.md\nrefund-rate-computation.md\nsla-credits.md"
    )
    assert steps[5].text.startswith("---\ntype: Policy\n") and steps[5].text.endswith("---\n")
    assert "# SLA service credits" not in steps[5].text
    # the peek named the CSV the frontmatter cites; the read named the documents the body links
    assert ("references/slo-targets.csv", "source") in {(r.path, r.how) for r in steps[5].new}
    assert "incidents/status-page-communication.md" in {r.path for r in steps[6].new}

    summary = walk.submit("Below 99.9 % uptime the customer gets a 10 % credit.")
    assert walk.finished and walk.available_actions() == []
    assert summary.turns == 9 and summary.budget == 15 and not summary.over_budget
    assert summary.submitted and summary.answer.startswith("Below 99.9")
    assert summary.read == (
        "SKILL.md",
        "index.md",
        "billing-support/index.md",
        "billing-support/refunds/index.md",
        sla,
        "references/slo-targets.csv",
    )
    assert summary.documents_read == (sla,)
    assert summary.peeked == (sla,) and summary.peeked_only == ()
    assert summary.listed == ("billing-support/refunds",)
    assert summary.bundles == ("", "billing-support", "billing-support/refunds")
    assert summary.failed == summary.guessed == 0
    assert summary.total_tokens == sum(s.tokens for s in walk.steps) == walk.tokens
    assert summary.context_tokens == walk.catalog.tokens + summary.total_tokens
    assert summary.touched == frozenset(summary.read) | {sla}

    out = tmp_path / "walk.jsonl"
    walk.export(out)
    lines = out.read_text().splitlines()
    assert len(lines) == 10  # the header, then one line a call
    header = json.loads(lines[0])
    assert header["kind"] == "header" and header["package"] == "orbit-handbook"
    assert header["budget"] == walk.budget and header["navigator"] == "kas-tui agent walk"
    assert "question" not in header  # none was given
    first = json.loads(lines[1])
    assert first["tool"] == "readfile" and first["args"] == {"path": "SKILL.md"}
    assert first["tokens"] == steps[0].tokens and first["ok"] is True and first["turn"] == 1
    assert json.loads(lines[-1])["tool"] == SUBMIT
    assert out.read_text() == walk.to_jsonl()

    again = replay_file(demo, out)
    assert again.problems == ()
    assert again.steps == walk.steps
    assert again.summary == summary
    assert again.guessed == () and again.failed == ()
    assert again.read_paths == frozenset(summary.read)
    assert again.peeked_paths == {sla}


# --- reachability ----------------------------------------------------------------------


def test_nothing_unrevealed_can_be_opened(acme):
    walk = Walk(acme)
    with pytest.raises(NotRevealedError):
        walk.readfile("index.md")  # SKILL.md has not been read yet
    with pytest.raises(NotRevealedError):
        walk.listdir("incidents")
    assert walk.steps == ()
    assert walk.can_open("SKILL.md") and walk.can_open("/") and walk.can_open(".")
    walk.readfile("SKILL.md")  # "Start at `index.md`" names the root index
    assert walk.can_open("index.md") and not walk.can_open("glossary.md")
    with pytest.raises(NotRevealedError):
        walk.readfile("billing/refund-policy.md")
    assert len(walk.steps) == 1


def test_reading_an_index_reveals_its_entries_with_their_cues(acme):
    walk = Walk(acme)
    walk.readfile("SKILL.md")
    step = walk.readfile("index.md")
    files, folders = paths(walk.reach.files), paths(walk.reach.folders)
    assert {"incidents/index.md", "billing/index.md", "glossary.md"} <= files
    assert {"incidents", "billing"} <= folders
    assert "billing/refund-policy.md" not in files
    glossary = walk.reach.files["glossary.md"]
    assert glossary.how == "entry" and glossary.source == "index.md"
    assert glossary.cue == "Glossary - Terms used across the Acme handbook, from SEV1 to dunning."
    actions = {a.label: a for a in walk.available_actions()}
    assert actions["read glossary.md"].cue == glossary.cue
    assert actions["read incidents/index.md"].args == {"path": "incidents/index.md"}
    assert "read index.md" not in actions  # already read
    assert [r.path for r in step.new][:2] == ["incidents", "incidents/index.md"]
    walk.readfile("billing/index.md")  # entries are /-rooted there
    assert {"billing/refund-policy.md", "billing/invoice-disputes.md"} <= paths(walk.reach.files)
    assert "billing/chargebacks.md" not in walk.reach.files  # no index lists it


def test_links_in_a_read_document_reveal_their_targets(tiny):
    walk = Walk(tiny)
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    walk.readfile("guide/index.md")
    assert not walk.can_open("notes/rel.md")
    step = walk.readfile("guide/intro.md")
    named = {r.path: r for r in step.reveals}
    assert named["notes/rel.md"].how == "link" and named["notes/rel.md"].cue == "the relative note"
    assert named["notes/rooted.md"].how == "link"  # /-rooted, fragment dropped
    assert named["notes"].folder and named["notes"].how == "path"
    assert "notes/hidden.md" not in named  # a link inside a code block is not a link
    assert "notes/unnamed.md" not in named
    assert named["../outside.md"].how == "link"  # named, though it leaves the package
    assert walk.can_open("notes/rel.md") and walk.can_open("/notes/rooted.md")
    assert walk.readfile("notes/rooted.md").ok
    with pytest.raises(NotRevealedError):
        walk.readfile("notes/unnamed.md")
    listing = walk.listdir("notes")
    assert listing.text == "hidden.md\nrel.md\nrooted.md\nunnamed.md"
    assert walk.readfile("notes/unnamed.md").ok  # the listing showed it


def test_a_link_written_with_backslashes_names_what_the_call_reaches(tmp_path):
    """Exported Windows docs link ``..\\security\\x.md``: the walk names the file a
    call with that path reaches (the sandbox reads backslashes as separators), so an
    agent, and the navigator that follows what it was shown, can open it."""
    files = dict(TINY)
    files["guide/intro.md"] = doc("Intro", "See [the security note](..\\security\\keys.md).\n")
    files["security/keys.md"] = doc("Keys")
    walk = Walk(Package.open(write(tmp_path / "tiny-kb", files)))
    for path in ("SKILL.md", "index.md", "guide/index.md"):
        walk.readfile(path)
    step = walk.readfile("guide/intro.md")
    named = {r.path: r for r in step.reveals}
    assert named["security/keys.md"].cue == "the security note"
    assert walk.can_open("security/keys.md") and walk.can_open("guide/..\\security\\keys.md")
    assert walk.readfile("security/keys.md").ok


def test_code_mentions_reveal_existing_paths_only(tiny):
    walk = Walk(tiny)
    step = walk.readfile("SKILL.md")
    assert [(r.path, r.how) for r in step.reveals] == [("index.md", "mention")]  # not `status`


def test_a_folder_link_names_its_index(tiny):
    walk = Walk(tiny)
    walk.readfile("SKILL.md")
    step = walk.readfile("index.md")
    assert [(r.path, r.folder, r.how) for r in step.reveals] == [
        ("guide", True, "entry"),
        ("guide/index.md", False, "entry"),
    ]


def test_back_restores_reachability_exactly(acme):
    walk = Walk(acme, peek=True)
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    before = (
        dict(walk.reach.files),
        dict(walk.reach.folders),
        walk.available_actions(),
        walk.tokens,
        walk.summary(),
    )
    walk.readfile("incidents/index.md")
    walk.readfile("incidents/incident-response.md")
    walk.listdir("incidents/postmortems")
    assert walk.can_open("incidents/postmortems/2026-04-17-search-outage.md")
    assert [walk.back().tool for _ in range(3)] == [LISTDIR, READFILE, READFILE]
    after = (
        dict(walk.reach.files),
        dict(walk.reach.folders),
        walk.available_actions(),
        walk.tokens,
        walk.summary(),
    )
    assert after == before
    assert not walk.can_open("incidents/incident-response.md")
    assert walk.back().path == "index.md" and walk.back().path == "SKILL.md"
    assert walk.back() is None and walk.turns == 0 and walk.tokens == 0
    assert not walk.can_open("index.md")


def test_back_after_submit_reopens_the_walk(acme):
    walk = Walk(acme)
    walk.readfile("SKILL.md")
    walk.submit("I do not know.")
    with pytest.raises(WalkError, match="submitted"):
        walk.readfile("index.md")
    assert walk.back().tool == SUBMIT
    assert not walk.finished and walk.readfile("index.md").ok


def test_available_actions_follow_reveal_order_and_flag_bad_targets(tiny):
    walk = Walk(tiny, peek=True)
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    walk.readfile("guide/index.md")
    walk.readfile("guide/intro.md")
    labels = [a.label for a in walk.available_actions()]
    assert labels[:4] == [
        "read notes/rel.md",
        "peek at notes/rel.md (frontmatter only)",
        "read notes/rooted.md",
        "peek at notes/rooted.md (frontmatter only)",
    ]
    assert labels[-1] == "submit an answer"
    assert "list the package root" in labels and "list notes/" in labels
    outside = next(a for a in walk.available_actions() if a.path == "../outside.md")
    assert outside.note == "outside the package"
    step = walk.call(outside.tool, outside.args)  # the agent may try it: a failed step
    assert step.status == "outside" and not step.ok and step.revealed


# --- the tools -------------------------------------------------------------------------


def test_listdir_sorts_marks_folders_and_hides_dot_files(acme):
    root = acme.root
    (root / ".hidden.md").write_text("x")
    (root / ".git").mkdir()
    walk = Walk(Package.open(root))
    step = walk.listdir()
    assert step.text == "SKILL.md\nbilling/\nglossary.md\nincidents/\nindex.md\nlog.md"
    assert step.args == {"path": "."} and step.path == ""
    for form in ("/", str(root), str(root) + "/", ""):
        assert walk.listdir(form).text == step.text
    assert walk.can_open("glossary.md") and walk.can_open("incidents")
    assert walk.reach.files["glossary.md"].how == "listing"
    assert not walk.can_open(".hidden.md")
    sub = walk.listdir("billing")
    assert sub.text.splitlines() == [
        "chargebacks.md",
        "index.md",
        "invoice-disputes.md",
        "refund-matrix.csv",
        "refund-policy.md",
    ]
    wrong = walk.listdir("glossary.md")
    assert wrong.status == "wrong-kind" and "is a file" in wrong.text


def test_readfile_returns_the_file_exactly(acme):
    root = acme.root
    walk = Walk(acme)
    step = walk.readfile("SKILL.md")
    assert step.text == (root / "SKILL.md").read_text()
    assert step.path == "SKILL.md" and step.role == "skill"
    folder = walk.readfile("/")
    assert folder.status == "wrong-kind" and "use listdir" in folder.text


def test_readfile_keeps_line_endings_and_drops_a_bom(tmp_path):
    root = write(tmp_path / "crlf-kb", TINY)
    (root / "notes" / "rel.md").write_bytes(b"\xef\xbb\xbf---\r\ntype: Note\r\n---\r\nBody\r\n")
    (root / "notes" / "blob.md").write_bytes(b"\x00\x01binary")
    sandbox = Sandbox(root)
    out = run_tool(sandbox, "readfile", {"path": "notes/rel.md"})
    assert out.text == "---\r\ntype: Note\r\n---\r\nBody\r\n"
    peeked = run_tool(sandbox, "peek", {"path": "notes/rel.md"})
    assert peeked.text == "---\r\ntype: Note\r\n---\r\n"
    bad = run_tool(sandbox, "readfile", {"path": "notes/blob.md"})
    assert bad.status == "unreadable"
    assert bad.text.startswith("Error: cannot read notes/blob.md: binary file")


def test_peek_returns_only_the_frontmatter(acme):
    walk = Walk(acme, peek=True)
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    walk.readfile("billing/index.md")
    step = walk.peek("billing/refund-policy.md")
    full = (acme.root / "billing/refund-policy.md").read_text()
    head = full[: full.index("\n---\n", 4) + 5]
    assert step.text == head and step.ok and step.tool == PEEK
    assert "# Refund policy" not in step.text
    assert step.result_tokens == estimate_tokens(head) < estimate_tokens(full)
    # the frontmatter cites a package file, the body's link is not seen
    assert [(r.path, r.how) for r in step.new] == [("billing/refund-matrix.csv", "source")]
    assert walk.reach.files["billing/refund-matrix.csv"].cue == "Acme refund matrix"
    plain = walk.peek("index.md")  # the root index holds only okf_version
    assert plain.text == '---\nokf_version: "0.2"\n---\n'
    walk.readfile("incidents/index.md")
    walk.listdir("incidents/postmortems")
    none = walk.peek("incidents/postmortems/index.md")
    assert none.ok and none.text == "incidents/postmortems/index.md has no YAML frontmatter"


def test_peek_is_an_option(acme):
    walk = Walk(acme)
    assert walk.tools == (LISTDIR, READFILE, SUBMIT)
    with pytest.raises(WalkError, match="not one of this walk's tools"):
        walk.peek("SKILL.md")
    with pytest.raises(WalkError):
        walk.call("bash", {"command": "ls"})
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    assert not any(a.tool == PEEK for a in walk.available_actions())
    assert not any(a.tool == PEEK for a in Walk(acme, peek=True).available_actions())
    peeking = Walk(acme, peek=True)
    peeking.readfile("SKILL.md")
    peeking.readfile("index.md")
    peeks = [a.path for a in peeking.available_actions() if a.tool == PEEK]
    assert peeks == ["glossary.md"]  # documents only, not indexes, logs or SKILL.md


# --- escapes ---------------------------------------------------------------------------


@pytest.fixture
def fenced(tmp_path: Path) -> Path:
    """The acme package beside a secret file, with a symlink pointing at it."""
    (tmp_path / "secret.md").write_text("---\ntype: Secret\n---\nthe password\n")
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "key.txt").write_text("the key\n")
    root = make_package(tmp_path)
    (root / "leak.md").symlink_to(tmp_path / "secret.md")
    (root / "billing" / "leaky").symlink_to(tmp_path / "secrets")
    return root


@pytest.mark.parametrize(
    "arg",
    [
        "../secret.md",
        "incidents/../../secret.md",
        "/../secret.md",
        "leak.md",
        "billing/leaky/key.txt",
        "/etc/passwd",
        "~/.ssh/id_rsa",
        "C:\\Windows\\win.ini",
        "file:///etc/passwd",
    ],
)
def test_escapes_fail_cleanly(fenced, arg):
    sandbox = Sandbox(fenced)
    for tool in (READFILE, PEEK):
        out = run_tool(sandbox, tool, {"path": arg})
        assert out.status == "outside" and not out.ok
        assert out.text == (
            f"Error: {arg} is outside the skill folder {fenced}; only files inside it can be opened"
        )
        assert "password" not in out.text and "the key" not in out.text


def test_absolute_paths_outside_the_package_fail_cleanly(fenced):
    sandbox = Sandbox(fenced)
    outside = str(fenced.parent / "secret.md")
    assert run_tool(sandbox, READFILE, {"path": outside}).status == "outside"
    assert run_tool(sandbox, LISTDIR, {"path": str(fenced.parent)}).status == "outside"
    assert run_tool(sandbox, LISTDIR, {"path": "billing/leaky"}).status == "outside"
    inside = run_tool(sandbox, READFILE, {"path": str(fenced / "glossary.md")})
    assert inside.ok and inside.path == "glossary.md"
    # a /-rooted path in a package folder that does not exist is missing, not outside
    assert run_tool(sandbox, READFILE, {"path": "/incidents/nope.md"}).status == "missing"
    assert run_tool(sandbox, READFILE, {"path": "/nope.md"}).status == "missing"
    # symlinks leaving the package are not listed
    listing = run_tool(sandbox, LISTDIR, {"path": "."})
    assert "leak.md" not in listing.entries
    assert "leaky/" not in run_tool(sandbox, LISTDIR, {"path": "billing"}).entries


def test_missing_and_hidden_paths_are_missing(acme):
    (acme.root / ".env").write_text("TOKEN=x\n")
    sandbox = Sandbox(acme.root)
    for arg in ("nope.md", "incidents/nope.md", ".env", "billing/../.env"):
        out = run_tool(sandbox, READFILE, {"path": arg})
        assert out.status == "missing" and out.text == f"Error: no such file or folder: {arg}"


def test_an_installed_location_is_accepted_and_named_in_errors(acme):
    home = "/home/me/.claude/skills/acme-kb"
    walk = Walk(acme, location=f"{home}/SKILL.md")
    assert walk.readfile(f"{home}/SKILL.md").ok
    assert walk.listdir(home).ok
    step = walk.call(READFILE, {"path": f"{home}/index.md"})
    assert step.ok and step.path == "index.md"
    out = run_tool(walk.trail.sandbox, READFILE, {"path": "../x.md"})
    assert home in out.text


def test_a_walk_reaching_a_symlink_outside_fails_cleanly(fenced):
    index = fenced / "index.md"
    index.write_text(index.read_text() + "* [Leak](leak.md) - Looks inside, is not.\n")
    walk = Walk(Package.open(fenced))
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    action = next(a for a in walk.available_actions() if a.path == "leak.md")
    assert action.note == "outside the package"
    step = walk.readfile("leak.md")
    assert step.status == "outside" and "password" not in step.text
    assert step.reveals == () and walk.summary().failed == 1


# --- budget and tokens -----------------------------------------------------------------


def test_turns_are_counted_against_the_budget(acme):
    walk = Walk(acme, budget=3)
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    walk.readfile("glossary.md")
    assert walk.turns == 3 and walk.remaining == 0 and not walk.over_budget
    summary = walk.submit("Dunning is the emails after a failed payment.")
    assert summary.turns == 4 and summary.budget == 3 and summary.over_budget
    assert walk.remaining == -1 and walk.over_budget
    assert Walk(acme).budget == 15
    with pytest.raises(ValueError, match="at least 1"):
        Walk(acme, budget=0)


def test_failed_calls_cost_a_turn_and_their_error_tokens(tiny):
    walk = Walk(tiny)
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    walk.readfile("guide/index.md")
    walk.readfile("guide/intro.md")
    step = walk.readfile("../outside.md")
    assert step.turn == 5 and step.result_tokens == estimate_tokens(step.text) > 0
    assert walk.summary().failed == 1 and walk.summary().turns == 5


def test_token_counts_match_tokens_py(acme):
    walk = Walk(acme)
    total = 0
    for step in (walk.readfile("SKILL.md"), walk.readfile("index.md"), walk.listdir(".")):
        assert step.result_tokens == estimate_tokens(step.text)
        assert step.call_tokens == estimate_tokens(call_text(step.tool, step.args))
        assert step.tokens == step.call_tokens + step.result_tokens
        total += step.tokens
        assert step.cumulative == total
    assert call_text(READFILE, {"path": "index.md"}) == 'readfile({"path": "index.md"})'
    answer = walk.call(SUBMIT, {"answer": "x" * 40})
    assert answer.result_tokens == 0 and answer.text == ""
    assert answer.call_tokens == estimate_tokens('submit_answer({"answer": "' + "x" * 40 + '"})')
    assert walk.context_tokens == walk.catalog.tokens + total + answer.tokens


# --- trajectories ----------------------------------------------------------------------


def test_malformed_lines_are_reported_with_their_line_numbers(tmp_path):
    lines = [
        '{"tool": "readfile", "args": {"path": "SKILL.md"}}',
        "",
        "not json at all",
        "[1, 2]",
        '{"args": {"path": "index.md"}}',
        '{"name": "read_file", "arguments": "{\\"path\\": \\"index.md\\"}"}',
        "   ",
        '{"tool_name": "listDir", "input": {"file_path": "incidents"}}',
        '{"tool": "readfile", "args": "nope"}',
        '{"tool": 5, "args": {}}',
        '{"tool": "readfile", "args": [1]}',
        '{"type": "function", "function": {"name": "submit_answer", "arguments": {"answer": "42"}}}',
    ]
    path = tmp_path / "agent.jsonl"
    path.write_text("\n".join(lines) + "\n")
    trajectory = read_trajectory(path)
    assert [(c.tool, c.args, c.line) for c in trajectory.calls] == [
        ("readfile", {"path": "SKILL.md"}, 1),
        ("read_file", {"path": "index.md"}, 6),
        ("listDir", {"file_path": "incidents"}, 8),
        ("submit_answer", {"answer": "42"}, 12),
    ]
    problems = {p.line: str(p) for p in trajectory.problems}
    assert sorted(problems) == [3, 4, 5, 9, 10, 11]
    assert problems[3].startswith(f"{path}, line 3: not valid JSON (Expecting value at column 1)")
    assert "got a list" in problems[4]
    assert "no tool name" in problems[5]
    assert "'args' is a string that is not JSON" in problems[9]
    assert "non-empty string, not a number" in problems[10]
    assert "'args' must be a JSON object, not a list" in problems[11]


def test_unreadable_trajectory_files_are_problems_not_exceptions(tmp_path):
    missing = read_trajectory(tmp_path / "nope.jsonl")
    assert missing.calls == () and "cannot read" in str(missing.problems[0])
    blob = tmp_path / "blob.jsonl"
    blob.write_bytes(b'{"tool": "readfile"}\n\xff\xfe\n')
    bad = read_trajectory(blob)
    assert bad.calls == () and "not valid UTF-8" in str(bad.problems[0])
    assert str(bad.problems[0]).startswith(str(blob))
    crlf = parse_trajectory('\ufeff\r\n{"tool": "listdir", "args": {"path": "."}}\r\n')
    assert [(c.tool, c.line) for c in crlf.calls] == [("listdir", 2)] and crlf.problems == ()


def test_replay_marks_guessed_missing_and_outside_calls(fenced):
    pkg = Package.open(fenced)
    text = "\n".join(
        json.dumps(record)
        for record in [
            {"name": "read_file", "arguments": {"path": f"{fenced}/SKILL.md"}},
            {"tool_name": "readfile", "input": {"file_path": "billing/refund-policy.md"}},
            {"tool": "readfile", "args": {"path": "index.md"}},
            {"tool": "readfile", "args": {"path": "glossary.md"}},
            {"tool": "readfile", "args": {"path": "nope.md"}},
            {"tool": "readfile", "args": {"path": "../secret.md"}},
            {"tool": "readfile", "args": {"path": "leak.md"}},
            {"tool": "peek", "args": {"path": "billing/chargebacks.md"}},
            {"tool": "bash", "args": {"command": "cat /etc/passwd"}},
            {"tool": "readfile", "args": {}},
            {"tool": "submit_answer", "args": {"answer": "Finance approves."}},
        ]
    )
    result = replay(pkg, parse_trajectory(text, "run.jsonl"), budget=5)
    steps = result.steps
    assert [s.status for s in steps] == [
        "ok",
        "ok",
        "ok",
        "ok",
        "missing",
        "outside",
        "outside",
        "ok",
        "bad-call",
        "bad-call",
        "ok",
    ]
    assert [s.revealed for s in steps] == [
        True,  # SKILL.md: the catalog names it
        False,  # refund-policy: guessed
        True,  # index.md: SKILL.md mentions it
        True,  # glossary.md: an index entry
        False,
        False,
        False,
        False,  # chargebacks: no index lists it, nothing links to it
        True,
        True,
        True,
    ]
    assert steps[0].tool == READFILE and steps[0].path == "SKILL.md"
    assert "password" not in steps[5].text + steps[6].text
    assert steps[8].text.startswith("Error: unknown tool 'bash'")
    assert steps[9].text == "Error: readfile needs a 'path' argument"
    assert [s.turn for s in result.guessed] == [2, 5, 6, 7, 8]
    assert result.read_paths == {"SKILL.md", "billing/refund-policy.md", "index.md", "glossary.md"}
    assert result.peeked_paths == {"billing/chargebacks.md"}
    assert result.touched == result.read_paths | result.peeked_paths
    summary = result.summary
    assert summary.turns == 11 and summary.over_budget and summary.failed == 5
    assert summary.guessed == 5 and summary.answer == "Finance approves."
    assert summary.documents_read == ("billing/refund-policy.md", "glossary.md")
    assert summary.bundles == ("billing", "")  # entered in that order
    assert result.source == "run.jsonl"


def test_replay_reports_problems_and_replays_the_rest(acme, tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"tool": "readfile", "args": {"path": "SKILL.md"}}\n{oops\n')
    result = replay_file(acme, path)
    assert len(result.steps) == 1 and result.steps[0].ok
    assert [p.line for p in result.problems] == [2]


def test_write_trajectory_is_atomic_and_overwrites(acme, tmp_path):
    walk = Walk(acme)
    walk.readfile("SKILL.md")
    out = tmp_path / "runs" / "walk.jsonl"
    out.parent.mkdir()
    out.write_text("old\n")
    write_trajectory(out, walk.steps)
    assert out.read_text() == trajectory_jsonl(walk.steps)
    assert sorted(os.listdir(out.parent)) == ["walk.jsonl"]  # no temporary file left behind
    walk.listdir()
    walk.export(out)
    assert len(out.read_text().splitlines()) == 3  # the header and two calls
    with pytest.raises(StoreError):
        write_trajectory(tmp_path / "runs", walk.steps)  # a folder
    assert trajectory_jsonl([]) == ""


def test_exported_records_follow_the_documented_schema(acme):
    walk = Walk(acme)
    walk.readfile("SKILL.md")
    walk.readfile("index.md")
    record = json.loads(walk.to_jsonl().splitlines()[2])  # after the header and SKILL.md
    assert set(record) == {
        "turn",
        "tool",
        "args",
        "ok",
        "status",
        "path",
        "tokens",
        "call_tokens",
        "result_tokens",
        "cumulative",
        "revealed",
    }
    assert record["turn"] == 2 and record["tokens"] == walk.steps[1].tokens
