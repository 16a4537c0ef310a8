"""The LLM navigator against a local stub of an OpenAI-compatible endpoint (no network),
and the preloaded SKILL.md it relies on (Trail, trajectory header, replay)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.features.agent import (
    Sandbox,
    Trail,
    catalog_entry,
    read_trajectory,
    replay_file,
    run_tool,
)
from kas_tui.features.agent.trajectory import write_trajectory
from kas_tui.features.evaluate.llm import LAST_CALL, LLMNavigator, key_from_env, tool_definitions
from kas_tui.features.evaluate.runs import ANSWERED, BUDGET, FAILED, GAVE_UP, Question, run_header
from tests.helpers.llm_stub import HANG, USAGE, Raw, StubServer, assistant, call

DEMO = Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook"
DOC = "slos/service-slo-targets.md"  # named in SKILL.md's entry points only
KEY = "sk-test-0123456789abcdef"
QUESTION = Question("q1", "What is the availability target of the API?", (DOC,))


@pytest.fixture
def package(tmp_path: Path) -> Package:
    root = tmp_path / "orbit-handbook"
    shutil.copytree(DEMO, root)
    return Package.open(root)


@pytest.fixture
def servers():
    started: list[StubServer] = []

    def start(script, **kwargs) -> StubServer:
        stub = StubServer(script, **kwargs).start()
        started.append(stub)
        return stub

    yield start
    for stub in started:
        stub.stop()


def navigator(package: Package, stub_or_url, **kwargs) -> LLMNavigator:
    catalog = catalog_entry(package)
    sandbox = Sandbox(package.root, location=catalog.location)
    base_url = stub_or_url if isinstance(stub_or_url, str) else stub_or_url.base_url
    options = {"model": "stub-model", "api_key": KEY, "timeout": 5.0, **kwargs}
    return LLMNavigator(sandbox, catalog, base_url=base_url, **options)


def sandbox_of(package: Package) -> Sandbox:
    return Sandbox(package.root, location=catalog_entry(package).location)


def walk_script() -> list:
    return [
        assistant(call("readfile", {"path": "index.md"}, "c1")),
        assistant(call("readfile", {"path": DOC}, "c2"), content="Reading the targets."),
        assistant(call("submit_answer", {"answer": f"99.95% (from {DOC})"}, "c3")),
    ]


def wandering(body) -> dict:
    """A new listdir each request (the same call thrice would stop the walk)."""
    turn = sum(m["role"] == "assistant" for m in body["messages"])
    return assistant(call("listdir", {"path": f"nowhere-{turn}"}, f"x{turn}"))


def tool_messages(request) -> list[dict]:
    return [m for m in request.body["messages"] if m["role"] == "tool"]


# -- a walk -------------------------------------------------------------------------------


def test_scripted_walk_answers_and_sends_what_the_tools_return(package, servers):
    stub = servers(walk_script())
    nav = navigator(package, stub)
    assert nav.name == "llm:stub-model"
    run = nav.run(QUESTION)

    assert run.ended == ANSWERED, run.note
    assert run.answer == f"99.95% (from {DOC})"
    assert [(s.tool, s.path) for s in run.steps] == [
        ("readfile", "index.md"),
        ("readfile", DOC),
        ("submit_answer", None),
    ]
    assert all(s.ok and s.revealed for s in run.steps)  # DOC was named by SKILL.md
    assert run.reached and run.turns_to_gold == 2
    assert run.preloaded == ("SKILL.md",)
    assert run.usage == {**{k: 3 * v for k, v in USAGE.items()}, "requests": 3}
    assert [c.chosen for c in run.choices] == ["index.md", DOC]
    assert DOC in dict(run.choices[0].options)  # it could have opened DOC at once

    assert len(stub.requests) == 3
    first = stub.requests[0]
    assert first.path == "/v1/chat/completions"
    assert first.headers["Authorization"] == f"Bearer {KEY}"
    body = first.body
    assert body["model"] == "stub-model" and body["tool_choice"] == "auto"
    assert body["temperature"] == 0.0
    names = [t["function"]["name"] for t in body["tools"]]
    assert names == ["listdir", "readfile", "submit_answer"]
    assert all(t["function"]["description"] for t in body["tools"])
    system, user = body["messages"]
    skill_text = (package.root / "SKILL.md").read_text(encoding="utf-8")
    assert system["role"] == "system" and user == {"role": "user", "content": QUESTION.question}
    assert catalog_entry(package).text in system["content"]
    assert skill_text in system["content"]
    assert "submit_answer" in system["content"] and "cite" in system["content"].lower()

    sandbox = sandbox_of(package)
    expected = [run_tool(sandbox, "readfile", {"path": p}).text for p in ("index.md", DOC)]
    sent = tool_messages(stub.requests[2])
    assert [m["content"] for m in sent] == expected
    assert [m["tool_call_id"] for m in sent] == ["c1", "c2"]
    echoed = [m for m in stub.requests[2].body["messages"] if m["role"] == "assistant"]
    assert echoed[1]["tool_calls"][0]["id"] == "c2"
    assert echoed[1]["content"] == "Reading the targets."


def test_no_key_sends_no_authorization(package, servers):
    stub = servers(walk_script())
    run = navigator(package, stub, api_key=None).run(QUESTION)
    assert run.ended == ANSWERED
    assert all("Authorization" not in r.headers for r in stub.requests)


def test_peek_is_offered_only_when_asked(package, servers):
    assert "peek" in [t["function"]["name"] for t in tool_definitions(peek=True)]
    stub = servers(
        [
            assistant(call("peek", {"path": DOC}, "p1")),
            assistant(call("submit_answer", {"answer": "no"}, "s1")),
        ]
    )
    run = navigator(package, stub).run(QUESTION)
    assert [s.tool for s in run.steps] == ["submit_answer"]  # the refused peek is no step
    assert tool_messages(stub.requests[1])[0]["content"].startswith("Error: peek is not")
    stub = servers(
        [
            assistant(call("peek", {"path": DOC}, "p1")),
            assistant(call("submit_answer", {"answer": "no"}, "s1")),
        ]
    )
    run = navigator(package, stub, peek=True).run(QUESTION)
    assert [s.tool for s in run.steps] == ["peek", "submit_answer"]
    peeked = run_tool(sandbox_of(package), "peek", {"path": DOC}).text
    assert tool_messages(stub.requests[1])[0]["content"] == peeked


def test_several_calls_in_one_reply_are_turns_in_order(package, servers):
    stub = servers(
        [
            assistant(
                call("listdir", {"path": ""}, "a"),
                call("readfile", {"path": "slos/index.md"}, "b"),
                call("readfile", {"path": DOC}, "c"),
            ),
            assistant(call("submit_answer", {"answer": "99.95%"}, "d")),
        ]
    )
    run = navigator(package, stub).run(QUESTION)
    assert [s.turn for s in run.steps] == [1, 2, 3, 4]
    assert [s.tool for s in run.steps] == ["listdir", "readfile", "readfile", "submit_answer"]
    assert [m["tool_call_id"] for m in tool_messages(stub.requests[1])] == ["a", "b", "c"]


def test_a_reply_without_a_tool_call_is_the_answer(package, servers):
    stub = servers([assistant(content="The handbook says 99.95%.")])
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == ANSWERED and run.answer == "The handbook says 99.95%."
    assert [(s.tool, s.args) for s in run.steps] == [
        ("submit_answer", {"answer": "The handbook says 99.95%."})
    ]
    assert "without calling submit_answer" in run.note
    stub = servers([assistant(content="")])
    assert navigator(package, stub).run(QUESTION).ended == GAVE_UP


# -- the budget ---------------------------------------------------------------------------


def test_budget_runs_out_after_fifteen_calls_with_a_last_call_warning(package, servers):
    stub = servers([wandering])
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == BUDGET
    assert len(run.steps) == 15 and run.summary.turns == 15
    assert run.answer == "" and "budget of 15" in run.note
    assert len(stub.requests) == 15
    last_user = [m for m in stub.requests[-1].body["messages"] if m["role"] == "user"]
    assert last_user[-1]["content"] == LAST_CALL
    earlier = [m for m in stub.requests[-2].body["messages"] if m["role"] == "user"]
    assert LAST_CALL not in [m["content"] for m in earlier]


def test_submitting_on_the_last_call_answers(package, servers):
    def reply(body):
        told = any(m.get("content") == LAST_CALL for m in body["messages"])
        if told:
            return assistant(call("submit_answer", {"answer": "partial"}, "s"))
        return wandering(body)

    stub = servers([reply])
    run = navigator(package, stub, budget=4).run(QUESTION)
    assert run.ended == ANSWERED and len(run.steps) == 4 and run.answer == "partial"


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "message"),
    [(500, "The server had an error"), (401, "Incorrect API key provided")],
)
def test_http_errors_fail_the_run_with_a_clear_note(package, servers, status, message):
    error = json.dumps({"error": {"message": message, "type": "x"}}).encode()
    stub = servers([assistant(call("readfile", {"path": "index.md"}, "c1")), Raw(status, error)])
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == FAILED
    assert f"HTTP {status}" in run.note and message in run.note
    assert stub.base_url + "/chat/completions" in run.note
    assert [s.path for s in run.steps] == ["index.md"]  # kept


def test_a_server_that_never_answers_times_out(package, servers):
    stub = servers([HANG])
    run = navigator(package, stub, timeout=0.2).run(QUESTION)
    assert run.ended == FAILED and run.steps == ()
    assert "no answer from" in run.note and "within 0.2 s" in run.note
    assert stub.base_url in run.note


def test_connection_refused_fails_the_run(package):
    stub = StubServer([]).start()
    url = stub.base_url
    stub.stop()  # nothing listens on that port any more
    run = navigator(package, url).run(QUESTION)
    assert run.ended == FAILED
    assert "cannot reach" in run.note and url in run.note


@pytest.mark.parametrize("url", ["not a url", "ftp://127.0.0.1:1/v1", "http://[::1"])
def test_a_malformed_base_url_fails_the_run(package, url):
    run = navigator(package, url).run(QUESTION)
    assert run.ended == FAILED and run.note


def test_a_failing_package_view_fails_the_run_without_a_request(package, servers):
    class Broken(Sandbox):
        def read_text(self, path: str) -> str:
            raise RuntimeError("ablation bug")

    stub = servers(walk_script())
    nav = navigator(package, stub)
    nav.sandbox = Broken(package.root)
    run = nav.run(QUESTION)
    assert run.ended == FAILED and "ablation bug" in run.note
    assert stub.requests == []


def test_key_from_env(monkeypatch):
    monkeypatch.setenv("KAS_TEST_KEY", f"  {KEY}\n")
    monkeypatch.setenv("KAS_BLANK_KEY", " ")
    monkeypatch.delenv("KAS_UNSET_KEY", raising=False)
    assert key_from_env("KAS_TEST_KEY") == KEY
    assert key_from_env("KAS_BLANK_KEY") is None and key_from_env("KAS_UNSET_KEY") is None


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (Raw(200, b"<html>gateway</html>", "text/html"), "no JSON"),
        (Raw(200, b'{"choices": []}'), "no choices"),
        (Raw(200, b'{"error": {"message": "model not loaded"}}'), "model not loaded"),
        (Raw(200, b'{"choices": [{"text": "hi"}]}'), "no message"),
        (Raw(200, b"[1, 2]"), "not an object"),
    ],
)
def test_replies_that_are_not_chat_completions_fail_the_run(package, servers, reply, said):
    stub = servers([reply])
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == FAILED and said in run.note and stub.base_url in run.note


def test_invalid_arguments_are_answered_with_an_error_and_the_run_goes_on(package, servers):
    stub = servers(
        [
            assistant(call("readfile", '{"path": "index.md"', "bad")),
            assistant(call("readfile", {"path": "index.md"}, "good")),
            assistant(call("submit_answer", {"answer": "done"}, "s")),
        ]
    )
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == ANSWERED
    assert [s.tool for s in run.steps] == ["readfile", "readfile", "submit_answer"]
    assert [s.status for s in run.steps] == ["bad-call", "ok", "ok"]  # a step (issue 34)
    first = tool_messages(stub.requests[1])
    assert first[0]["tool_call_id"] == "bad"
    assert first[0]["content"].startswith("Error: the arguments are not valid JSON")
    assert "not valid JSON" in run.note


def test_unknown_tools_are_bad_calls(package, servers):
    stub = servers(
        [
            assistant(call("search", {"query": "slo"}, "q")),
            assistant(call("submit_answer", {"answer": "x"}, "s")),
        ]
    )
    run = navigator(package, stub).run(QUESTION)
    assert run.steps[0].status == "bad-call"
    assert tool_messages(stub.requests[1])[0]["content"] == run.steps[0].text


def test_paths_leaving_the_package_are_errors_never_reads(package, servers, tmp_path):
    (tmp_path / "x").write_text("SECRET-OUTSIDE", encoding="utf-8")
    stub = servers(
        [
            assistant(
                call("readfile", {"path": "../x"}, "a"),
                call("readfile", {"path": "/etc/passwd"}, "b"),
                call("listdir", {"path": ".."}, "c"),
            ),
            assistant(call("submit_answer", {"answer": "nothing"}, "d")),
        ]
    )
    run = navigator(package, stub).run(QUESTION)
    assert [s.status for s in run.steps[:3]] == ["outside"] * 3
    sent = [m["content"] for m in tool_messages(stub.requests[1])]
    assert all(text.startswith("Error:") and "outside" in text for text in sent)
    everything = json.dumps([r.body for r in stub.requests])
    assert "SECRET-OUTSIDE" not in everything and "root:" not in everything


def test_the_key_is_never_written(package, servers, tmp_path):
    def echo_key(body):
        return Raw(401, json.dumps({"error": {"message": f"bad key {KEY}"}}).encode())

    stub = servers([assistant(call("readfile", {"path": "index.md"}, "c")), echo_key])
    nav = navigator(package, stub)
    run = nav.run(QUESTION)
    assert run.ended == FAILED and "bad key ***" in run.note
    out = tmp_path / "run.jsonl"
    write_trajectory(out, run.steps, run_header(package.name, run))
    assert KEY not in out.read_text(encoding="utf-8")
    assert KEY not in run.note and KEY not in repr(nav) and KEY not in repr(run)


# -- trajectories and the preloaded SKILL.md ----------------------------------------------


def test_written_trajectory_replays_with_the_same_steps_and_nothing_guessed(
    package, servers, tmp_path
):
    stub = servers(walk_script())
    run = navigator(package, stub).run(QUESTION)
    out = tmp_path / "run.jsonl"
    write_trajectory(out, run.steps, run_header(package.name, run))
    header = read_trajectory(out).header
    assert header["preloaded"] == ["SKILL.md"] and header["navigator"] == "llm:stub-model"
    assert header["usage"]["requests"] == 3

    again = replay_file(package, out)
    assert again.problems == ()
    key = [(s.tool, s.args, s.status, s.path, s.text, s.revealed) for s in run.steps]
    assert [(s.tool, s.args, s.status, s.path, s.text, s.revealed) for s in again.steps] == key
    assert again.guessed == ()
    assert again.summary.catalog_tokens == run.summary.catalog_tokens

    bare = tmp_path / "bare.jsonl"  # without the header, DOC counts as guessed
    write_trajectory(bare, run.steps)
    assert [s.path for s in replay_file(package, bare).guessed] == ["index.md", DOC]


def test_trail_preloaded_files_name_paths_without_a_step(package):
    sandbox = sandbox_of(package)
    plain = Trail(sandbox, catalog_tokens=10)
    trail = Trail(sandbox, catalog_tokens=10, preloaded=("SKILL.md",))
    assert trail.steps == [] and trail.preloaded == ("SKILL.md",)
    assert trail.preloads[0].text == run_tool(sandbox, "readfile", {"path": "SKILL.md"}).text
    assert not plain.reach.knows(DOC) and trail.reach.knows(DOC)
    assert trail.reach.knows("index.md") and trail.reach.knows("slos")
    assert trail.catalog_tokens > plain.catalog_tokens == 10
    step = trail.record("readfile", {"path": DOC})
    assert step.revealed and trail.summary(15).read == (DOC,)
    trail.pop()
    assert trail.reach.knows(DOC)  # popping keeps what was preloaded
    missing = Trail(sandbox, preloaded=("nope.md",))
    assert not missing.preloads[0].ok and not missing.reach.knows(DOC)
