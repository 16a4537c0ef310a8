"""The LLM navigator against a stand-in for a strict OpenAI-compatible server (issue 34,
item 7): what llama-cpp-python's server refused (``"content": null`` beside tool calls)
is sent as a string, a walk that loops on one call is stopped at its third, malformed
arguments are bad-call steps, and each turn is reported as it happens."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kas_tui.core.package import Package
from kas_tui.features.agent import Sandbox, catalog_entry, replay_file, run_tool
from kas_tui.features.agent.tools import BAD_CALL
from kas_tui.features.agent.trajectory import write_trajectory
from kas_tui.features.evaluate.llm import MAX_REPEATS, LLMNavigator
from kas_tui.features.evaluate.metrics import overall
from kas_tui.features.evaluate.runs import ANSWERED, REPEATED, Question, run_header
from tests.helpers.llm_stub import StubServer, assistant, call
from tests.helpers.strict_openai_standin import StrictStandIn, request_problems

DEMO = Path(__file__).resolve().parents[3] / "demo_kb" / "orbit-handbook"
DOC = "slos/service-slo-targets.md"
QUESTION = Question("q7", "What is the availability target of the API?", (DOC,))


@pytest.fixture
def package(tmp_path: Path) -> Package:
    root = tmp_path / "orbit-handbook"
    shutil.copytree(DEMO, root)
    return Package.open(root)


@pytest.fixture
def servers():
    started: list[StubServer] = []

    def start(script, *, strict: bool = True) -> StubServer:
        stub = (StrictStandIn(script) if strict else StubServer(script)).start()
        started.append(stub)
        return stub

    yield start
    for stub in started:
        stub.stop()


def navigator(package: Package, stub: StubServer, **kwargs) -> LLMNavigator:
    catalog = catalog_entry(package)
    sandbox = Sandbox(package.root, location=catalog.location)
    options = {"model": "standin", "timeout": 5.0, **kwargs}
    return LLMNavigator(sandbox, catalog, base_url=stub.base_url, **options)


def walk_script() -> list:
    # a model's tool-call reply carries "content": null, as OpenAI's and llama.cpp's do
    return [
        assistant(call("readfile", {"path": "index.md"}, "c1")),
        assistant(call("readfile", {"path": DOC}, "c2"), call("listdir", {"path": ""}, "c3")),
        assistant(call("submit_answer", {"answer": f"99.95% ({DOC})"}, "c4")),
    ]


def test_the_standin_refuses_what_strict_servers_refuse() -> None:
    ok = {
        "model": "m",
        "tool_choice": "auto",
        "messages": [
            {"role": "system", "content": "s"},
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": "", "tool_calls": [call("readfile", {}, "a")]},
            {"role": "tool", "tool_call_id": "a", "content": "text"},
        ],
    }
    assert request_problems(ok) == []
    null = json.loads(json.dumps(ok))
    null["messages"][2]["content"] = None
    assert request_problems(null) == ["messages[2].content: a string is required, not null"]
    wrong_id = json.loads(json.dumps(ok))
    wrong_id["messages"][3]["tool_call_id"] = "b"
    assert any("'b' answers no open tool call" in p for p in request_problems(wrong_id))
    assert any("have no tool message" in p for p in request_problems(wrong_id))
    object_args = json.loads(json.dumps(ok))
    object_args["messages"][2]["tool_calls"][0]["function"]["arguments"] = {"path": "x"}
    assert request_problems(object_args) == [
        "messages[2].tool_calls[0].function.arguments: a string is required"
    ]
    order = json.loads(json.dumps(ok))
    order["messages"][0], order["messages"][1] = order["messages"][1], order["messages"][0]
    assert request_problems(order)[0] == "messages[1]: a system message after a user message"
    assert (
        "the last message is 'assistant'"
        in request_problems({**ok, "messages": ok["messages"][:3]})[-1]
    )


@pytest.mark.parametrize("strict", [True, False], ids=["strict-standin", "lenient-stub"])
def test_a_walk_runs_end_to_end_on_a_strict_server_and_a_lenient_one(package, servers, strict):
    stub = servers(walk_script(), strict=strict)
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == ANSWERED, run.note
    assert [s.tool for s in run.steps] == ["readfile", "readfile", "listdir", "submit_answer"]
    assert run.reached
    assert getattr(stub, "refused", []) == []
    echoed = [m for m in stub.requests[-1].body["messages"] if m["role"] == "assistant"]
    assert [m["content"] for m in echoed] == ["", ""]  # never null
    for request in stub.requests:
        assert request_problems(request.body) == []


def test_a_server_error_names_the_rule_it_broke(package, servers, monkeypatch):
    """What the user saw with llama-cpp-python: HTTP 500 on the second request, now
    with the server's message in the note (the stand-in refuses a null content)."""
    import kas_tui.features.evaluate.llm as llm

    real = llm._assistant

    def null_content(message, calls):
        return {**real(message, calls), "content": None}

    monkeypatch.setattr(llm, "_assistant", null_content)
    stub = servers(walk_script())
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == "failed" and len(stub.requests) == 2
    assert "HTTP 500" in run.note and "content: a string is required, not null" in run.note


# -- repeats --------------------------------------------------------------------------


def test_the_same_call_three_times_stops_the_walk(package, servers):
    stub = servers([assistant(call("readfile", {"path": "index.md"}, "same"))])
    run = navigator(package, stub).run(QUESTION)
    assert MAX_REPEATS == 3
    assert run.ended == REPEATED
    assert [s.path for s in run.steps] == ["index.md"] * 3
    assert len(stub.requests) == 3  # not 15
    assert run.note.startswith('stopped: repeated call: readfile({"path": "index.md"}) made 3')
    assert overall([run]).repeated == 1
    assert overall([run]).record()["stopped_repeating"] == 1


def test_other_arguments_or_key_order_are_told_apart_rightly(package, servers):
    script = [
        assistant(call("readfile", {"path": "index.md"}, "a")),
        assistant(call("listdir", {"path": "index.md"}, "b")),  # another tool
        assistant(call("readfile", {"path": "slos/index.md"}, "c")),  # another path
        assistant(call("read_file", '{"path":"index.md"}', "d")),  # the same call again
        assistant(call("submit_answer", {"answer": "x"}, "e")),
    ]
    stub = servers(script)
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == ANSWERED, run.note  # index.md read twice only
    stub = servers([*script[:4], script[0]])
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == REPEATED and len(run.steps) == 5


def test_repeating_within_one_reply_stops_before_the_rest(package, servers):
    same = call("listdir", {"path": ""}, "x")
    stub = servers(
        [
            assistant(
                same,
                {**same, "id": "y"},
                {**same, "id": "z"},
                call("readfile", {"path": DOC}, "w"),
            )
        ]
    )
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == REPEATED and [s.tool for s in run.steps] == ["listdir"] * 3
    assert len(stub.requests) == 1


# -- malformed arguments ----------------------------------------------------------------


def test_an_html_escaped_path_is_a_bad_call_step_that_says_why(package, servers, tmp_path):
    stub = servers(
        [
            assistant(call("readfile", '{"path": "index.md&#34;"}', "a")),
            assistant(call("readfile", {"path": "index.md"}, "b")),
            assistant(call("submit_answer", {"answer": "x"}, "c")),
        ]
    )
    run = navigator(package, stub).run(QUESTION)
    assert run.ended == ANSWERED
    bad = run.steps[0]
    assert bad.status == BAD_CALL and not bad.ok
    assert "&#34;" in bad.text and "HTML character reference" in bad.text
    sent = [m for m in stub.requests[1].body["messages"] if m["role"] == "tool"]
    assert sent[0]["content"] == bad.text
    out = tmp_path / "run.jsonl"  # the trajectory replays to the same statuses
    write_trajectory(out, run.steps, run_header(package.name, run))
    replayed = replay_file(package, out)
    assert [s.status for s in replayed.steps] == [s.status for s in run.steps]
    assert replayed.steps[0].text == bad.text


def test_a_real_file_whose_name_holds_an_ampersand_is_read(package):
    (package.root / "a&#34;b.md").write_text("---\ntitle: x\n---\nbody\n", encoding="utf-8")
    sandbox = Sandbox(package.root, location=catalog_entry(package).location)
    assert run_tool(sandbox, "readfile", {"path": "a&#34;b.md"}).ok


def test_invalid_json_arguments_are_a_bad_call_step_and_three_stop_the_walk(package, servers):
    stub = servers([assistant(call("readfile", '{"path": "index.md"', "bad"))])
    run = navigator(package, stub).run(QUESTION)
    assert [s.status for s in run.steps] == [BAD_CALL] * 3
    assert run.steps[0].args == {"arguments": '{"path": "index.md"'}
    assert run.steps[0].text.startswith("Error: the arguments are not valid JSON")
    assert run.ended == REPEATED and len(stub.requests) == 3
    assert "not valid JSON" in run.note


# -- progress ---------------------------------------------------------------------------


def test_each_turn_is_reported_as_it_happens(package, servers):
    said: list[str] = []
    stub = servers(walk_script())

    def report(line: str) -> None:
        said.append(f"{line} [{len(stub.requests)} requests]")

    run = navigator(package, stub, report=report).run(QUESTION)
    assert run.ended == ANSWERED
    assert said == [
        "q7 asking the model [0 requests]",
        "q7 turn 1/15: readfile index.md (ok) [1 requests]",
        f"q7 turn 2/15: readfile {DOC} (ok) [2 requests]",
        "q7 turn 3/15: listdir . (ok) [2 requests]",
        "q7 turn 4/15: submit_answer (answered) [3 requests]",
    ]
