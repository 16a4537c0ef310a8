"""eval --discovery: the package's catalog entry among others, trigger queries routed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.features.agent.skill_catalog import CatalogEntry, catalog_entry
from kas_tui.features.evaluate.discovery import (
    ROUTERS,
    Routing,
    decoy_catalog,
    decoy_skills,
    discover,
    format_discovery_text,
    installed_catalog,
)
from kas_tui.features.evaluate.trigger_queries import (
    TriggerQuery,
    draft_trigger_queries,
    parse_trigger_queries,
    read_trigger_queries,
)

DEMO = Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook"

#: docs/skill-creation/optimizing-descriptions.mdx (agentskills/agentskills): its
#: eval_queries.json example.
SPEC_QUERIES = """[
  { "query": "I've got a spreadsheet in ~/data/q4_results.xlsx with revenue in col C and expenses in col D \\u2014 can you add a profit margin column and highlight anything under 10%?", "should_trigger": true },
  { "query": "whats the quickest way to convert this json file to yaml", "should_trigger": false }
]
"""

ROTATE = TriggerQuery("how do I rotate a leaked vault credential", True)
SLO = TriggerQuery("what should on-call do when the SLO error budget runs out", True)
KUBE = TriggerQuery("my pod is stuck in CrashLoopBackOff after the helm upgrade", False)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DEMO, tmp_path / "orbit-handbook"))


def _entry(root: Path) -> CatalogEntry:
    return catalog_entry(Package.open(root))


def test_the_router_picks_the_entry_whose_words_the_query_uses(demo: Path) -> None:
    found = discover(_entry(demo), decoy_catalog(), [ROTATE, SLO, KUBE])
    slo, rotate, kube = (found.results[i] for i in (1, 0, 2))
    assert slo.triggered and slo.rank == 1 and {"slo", "oncall"} <= set(slo.shared)
    assert not kube.triggered and kube.routing.picked == "kubernetes-deploy"
    # missed: blame names the query's words the description lacks
    assert not rotate.triggered
    assert set(rotate.lacking) >= {"rotate", "leaked", "vault", "credential"}
    assert (found.precision, found.recall) == (1.0, 0.5)
    assert found.lacking_words()[0][1] == 1
    text = format_discovery_text(found)
    assert "precision 100.0% (1 of 1 triggered), recall 50.0% (1 of 2)" in text
    assert "the description lacks: rotate, leaked, vault, credential" in text


def test_adding_the_blamed_words_to_the_description_makes_the_query_trigger(demo: Path) -> None:
    before = discover(_entry(demo), decoy_catalog(), [ROTATE])
    skill = demo / "SKILL.md"
    text = skill.read_text(encoding="utf-8")
    lacking = " ".join(before.results[0].lacking)
    skill.write_text(text.replace("or access request.", f"or access request ({lacking})."))
    after = discover(_entry(demo), decoy_catalog(), [ROTATE])
    assert after.results[0].triggered and not after.results[0].lacking


def test_a_false_trigger_names_the_words_it_shares(demo: Path) -> None:
    near = TriggerQuery("write a blameless postmortem for this incident timeline", False, "x")
    found = discover(_entry(demo), [], [near])  # no sibling to take it: the package does
    assert found.false_triggers and {"postmortem", "incident"} <= set(found.results[0].shared)
    assert found.precision == 0.0 and found.recall is None
    assert dict(found.shared_words())["postmortem"] == 1


def test_drafted_queries_come_from_bodies_and_sibling_skills(demo: Path) -> None:
    package = Package.open(demo)
    entry = catalog_entry(package)
    queries = draft_trigger_queries(package, entry, decoy_skills())
    should = [q for q in queries if q.should_trigger]
    should_not = [q for q in queries if not q.should_trigger]
    assert len(should) == len(should_not) == 10
    assert all(q.origin.startswith("drafted (") for q in should)
    assert should[0].origin.startswith("drafted (goal)")  # section goals first
    # near-misses: one per sibling, those sharing words with the entry first
    siblings = [q.origin.removeprefix("near-miss from ") for q in should_not]
    assert len(set(siblings)) == 10 and "postmortem-writer" in siblings
    decoy_queries = {q for _, qs in decoy_skills() for q in qs}
    assert all(q.query in decoy_queries for q in should_not)
    assert draft_trigger_queries(package, entry, decoy_skills()) == queries  # deterministic


def test_the_decoys_are_real_shaped_catalog_entries() -> None:
    skills = decoy_skills()
    assert len(skills) >= 20
    for entry, queries in skills:
        assert entry.name.islower() and " " not in entry.name and len(entry.description) <= 1024
        assert "Use when" in entry.description and len(queries) >= 3


def test_a_router_is_pluggable(demo: Path) -> None:
    class Always:
        name = "always-the-first"

        def __init__(self, entries) -> None:  # noqa: ANN001
            self.first = entries[0].name

        def route(self, query: str) -> Routing:
            return Routing(self.first)

    found = discover(_entry(demo), decoy_catalog(), [ROTATE, KUBE], router=Always)
    assert found.router == "always-the-first"
    assert [r.triggered for r in found.results] == [True, True]
    assert [r.rank for r in found.results] == [None, None]  # it ranks nothing
    assert "lexical-bm25" in ROUTERS


def _skill(folder: Path, name: str, description: str) -> None:
    (folder / name).mkdir(parents=True)
    (folder / name / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n\nBody.\n", encoding="utf-8"
    )


def test_the_installed_catalog_is_every_clients_skill_folder(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    _skill(home / ".claude" / "skills", "vault-ops", "Rotate Vault credentials. Use when...")
    _skill(home / ".agents" / "skills", "vault-ops", "A second copy, listed once")
    _skill(project / ".gemini" / "skills", "orbit-handbook", "The package, installed")
    _skill(project / ".claude" / "skills", "bad", "")  # no description: never listed
    names = [e.name for e in installed_catalog(home=home, project=project)]
    assert names == ["vault-ops", "orbit-handbook"]
    installed = installed_catalog(home=home, project=project)
    found = discover(_entry(DEMO), installed, [ROTATE], against="installed")
    # the package's own installed copy is not its rival
    assert [e.name for e in found.catalog] == ["orbit-handbook", "vault-ops"]
    assert found.results[0].routing.picked == "vault-ops"


# --- trigger query files ---------------------------------------------------------------------


def test_the_formats_trigger_queries_read(tmp_path: Path) -> None:
    path = tmp_path / "eval_queries.json"
    path.write_text(SPEC_QUERIES, encoding="utf-8")
    tset = read_trigger_queries(path)
    assert not tset.problems
    assert [q.should_trigger for q in tset.queries] == [True, False]
    assert "profit margin column" in tset.queries[0].query
    form_b = '{"evals": [{"prompt": "improve this description", "should_trigger": true}]}'
    assert parse_trigger_queries(form_b).queries[0].query == "improve this description"
    lines = '{"query": "a", "should_trigger": true}\n\n{"query": "b", "should_trigger": false}\n'
    assert [q.line for q in parse_trigger_queries(lines).queries] == [1, 3]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[\n  {oops\n]", "q.json, line 2: not valid JSON"),
        ('{"query": "a", "should_trigger": true}\n{oops\n', "q.json, line 2: not valid JSON"),
        ("3", "q.json: expected a list of trigger queries, got a number"),
        (
            '[{"query": "a"}]',
            "q.json: item 1: 'should_trigger' must be true or false (it is missing)",
        ),
        ('[{"query": "", "should_trigger": true}]', "item 1: 'query' must be a non-empty string"),
        (
            '{"evals": [{"id": 1, "prompt": "p", "gold": ["a.md"]}]}',
            "item 1: a question, not a trigger query",
        ),
        ("[]", "q.json: holds no trigger queries"),
    ],
)
def test_a_bad_trigger_file_is_one_line_naming_file_and_fault(text: str, message: str) -> None:
    problems = [str(p) for p in parse_trigger_queries(text, "q.json").problems]
    assert len(problems) == 1 and message in problems[0] and "\n" not in problems[0], problems


# --- the command -----------------------------------------------------------------------------


def test_eval_discovery_reports_on_the_demo_with_its_blame(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main(["eval", str(demo), "--discovery"]) == 0
    out = capsys.readouterr().out
    assert "orbit-handbook among 25 catalog entries (decoys), router lexical-bm25" in out
    assert "20 queries: 10 should trigger, 10 should not" in out
    assert "the description lacks: " in out and "Blame: words the missed queries use" in out

    run = tmp_path / "run"
    assert main(["eval", str(demo), "--discovery", "--format", "json", "--out", str(run)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record == json.loads((run / "discovery.json").read_text(encoding="utf-8"))
    assert record["queries"] == 20 and record["router"] == "lexical-bm25"
    first = record["results"][0]
    assert {"query", "should_trigger", "triggers", "runs", "trigger_rate"} <= set(first)
    missed = [r for r in record["results"] if r["should_trigger"] and not r["triggers"]]
    assert missed and all(r["lacking"] for r in missed if r["picked"] is None)
    assert record["blame"]["lacking"][0]["queries"] >= 1


def test_eval_discovery_with_the_users_queries_and_bad_input(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    queries = tmp_path / "eval_queries.json"
    queries.write_text(
        json.dumps(
            [
                {"query": SLO.query, "should_trigger": True},
                {"query": KUBE.query, "should_trigger": False},
            ]
        ),
        encoding="utf-8",
    )
    args = ["eval", str(demo), "--discovery", "--questions", str(queries)]
    assert main([*args, "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["precision"], record["recall"], record["passed"]) == (1.0, 1.0, 2)

    queries.write_text('[{"query": "x"}]', encoding="utf-8")
    assert main(args) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and f"{queries}: item 1: 'should_trigger'" in err[0]

    monkeypatch.setenv("HOME", str(tmp_path / "nobody"))
    monkeypatch.chdir(tmp_path)
    assert main(["eval", str(demo), "--discovery", "--against", "installed"]) == 2
    assert "no other skill is installed for you" in capsys.readouterr().err
    _skill(tmp_path / "nobody" / ".claude" / "skills", "vault-ops", "Rotate Vault credentials.")
    json_args = ["eval", str(demo), "--discovery", "--format", "json", "--against"]
    assert main([*json_args, "installed"]) == 0
    assert json.loads(capsys.readouterr().out)["catalog"] == ["orbit-handbook", "vault-ops"]
    assert main([*json_args, "both"]) == 0
    assert len(json.loads(capsys.readouterr().out)["catalog"]) == 26
    llm = ["--llm-base-url", "http://localhost:1/v1", "--llm-model", "m"]
    assert main(["eval", str(demo), "--discovery", *llm]) == 2
    assert "lexical router only" in capsys.readouterr().err
