"""An OpenAI-compatible chat model as the navigator: the paper's minimal agent setup.

The system prompt is the skill's ``<available_skills>`` catalog entry and SKILL.md's
full text (the skill is activated: SKILL.md is *preloaded*, so what it names is
reachable without a call), then the rules: answer only from documents read with the
tools, cite their paths, call ``submit_answer`` when done. The user message is the
question. Each reply's tool calls are served in order through the run's
:class:`~kas_tui.features.agent.Trail`, one turn each, and answered with ``role: tool`` messages
holding exactly the text the tool returned (cut at ``max_result_chars``, saying so).

The budget counts tool calls, ``submit_answer`` included. When one call remains the
model is told to submit now; when none remains the run ends with ``budget``. A reply
without a tool call is the answer (recorded as a ``submit_answer`` step). A call whose
arguments are not a JSON object is a ``bad-call`` step (its arguments logged as
``{"arguments": <the text sent>}``), answered with the error; a call to ``peek`` when it
is not offered is answered with an error and spends a turn, but is not a step. A walk
that makes the same call (the same tool with the same arguments) :data:`MAX_REPEATS`
times is stopped there: it ends ``repeated``, its note naming the call.

The assistant message sent back with the model's tool calls always carries a string
``content`` (``""`` when the model wrote none): OpenAI accepts ``null`` there, but strict
compatible servers (llama-cpp-python's) answer it with HTTP 500. ``report``, when given,
is told each question's start and each turn in one line (``q0001 turn 3/15: readfile
incidents/index.md (ok)``), for a progress display: a model may take a minute a turn.

Only the standard library speaks HTTP (``POST {base_url}/chat/completions``). Nothing
raises out of :meth:`LLMNavigator.run`: an endpoint error, a timeout, a refused
connection or a reply that is not a chat completion ends the run ``failed`` with a note
naming the URL, keeping the steps made so far. The API key is sent as a bearer token
when set, and is never written to a note, a trajectory or an exception message.
"""

from __future__ import annotations

import http.client
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from kas_tui.features.agent.sandbox import Sandbox
from kas_tui.features.agent.skill_catalog import CatalogEntry
from kas_tui.features.agent.step import Step
from kas_tui.features.agent.tools import (
    LISTDIR,
    PEEK,
    READFILE,
    SUBMIT,
    answer_arg,
    call_text,
    canonical_tool,
    shown_arg,
)
from kas_tui.features.agent.trail import Trail
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET
from kas_tui.features.evaluate.runs import (
    ANSWERED,
    BUDGET,
    FAILED,
    GAVE_UP,
    REPEATED,
    Choice,
    Question,
    Run,
)

SKILL_FILE = "SKILL.md"
#: Tool results longer than this many characters are cut before the model reads them.
DEFAULT_MAX_RESULT_CHARS = 60_000
#: How much of an endpoint's error body a note quotes.
_ERROR_CHARS = 300
#: A walk that makes the same call this many times is stopped (it ends ``repeated``).
MAX_REPEATS = 3
_LOOPBACK = {"localhost", "127.0.0.1", "::1"}

_PATH_PARAMETERS = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": 'A path relative to the skill folder, such as "index.md" or '
            '"incidents/index.md"; "" or "." is the skill folder itself.',
        }
    },
    "required": ["path"],
}

_TOOL_DESCRIPTIONS = {
    LISTDIR: "List a folder of the skill: its entries one per line, sorted, folders "
    "with a trailing '/'.",
    READFILE: "Read a file of the skill: its whole text, YAML frontmatter included.",
    PEEK: "Read only the YAML frontmatter of a file (title, description, status, "
    "dates), not its body: cheaper than readfile when deciding whether to read it.",
    SUBMIT: "Submit your final answer and end the task. Answer only from documents you "
    "read with the tools and cite their paths; if they do not answer the question, "
    "say so.",
}


def tool_definitions(*, peek: bool = False) -> list[dict[str, Any]]:
    """The ``tools`` of a chat completion request: listdir, readfile, [peek,] submit_answer."""
    names = (LISTDIR, READFILE, PEEK, SUBMIT) if peek else (LISTDIR, READFILE, SUBMIT)
    tools = []
    for name in names:
        parameters: dict[str, Any] = _PATH_PARAMETERS
        if name == SUBMIT:
            answer = {"type": "string", "description": "The answer, citing the paths read."}
            parameters = {
                "type": "object",
                "properties": {"answer": answer},
                "required": ["answer"],
            }
        function = {"name": name, "description": _TOOL_DESCRIPTIONS[name]}
        tools.append({"type": "function", "function": {**function, "parameters": parameters}})
    return tools


def system_prompt(catalog: CatalogEntry, skill_text: str, *, budget: int, peek: bool) -> str:
    """The catalog entry, the activated SKILL.md and the rules of the task."""
    peek_line = "- peek(path) returns only a file's YAML frontmatter.\n" if peek else ""
    return (
        f"{catalog.text}\n\n"
        f'The skill "{catalog.name}" is active. Its SKILL.md ({catalog.location}) reads:\n\n'
        f"<skill_md>\n{skill_text}\n</skill_md>\n\n"
        "Answer the user's question from this skill's documents. Your tools:\n"
        "- listdir(path) lists a folder of the skill;\n"
        "- readfile(path) returns a file's whole text;\n"
        f"{peek_line}"
        "- submit_answer(answer) submits your final answer and ends the task.\n"
        "Paths are relative to the skill folder (the folder holding SKILL.md), such as "
        '"index.md" or "incidents/index.md". Links in a document resolve from its folder; '
        '"/"-rooted links resolve from the skill folder.\n\n'
        "Answer only from documents you actually read with these tools, never from general "
        "knowledge; if they do not answer the question, say so. Cite the paths of the "
        f"documents you read. You have at most {budget} tool calls, submit_answer "
        "included. When you are done, call submit_answer with your answer."
    )


#: The environment variable the key is read from unless the caller names another.
DEFAULT_KEY_ENV = "OPENAI_API_KEY"


def key_from_env(name: str = DEFAULT_KEY_ENV) -> str | None:
    """The API key in environment variable ``name``, or ``None`` when unset or blank."""
    value = os.environ.get(name, "").strip()
    return value or None


LAST_CALL = (
    "You have one tool call left. Call submit_answer now with your answer from the "
    "documents you have read (say what is missing if they do not answer the question)."
)


class EndpointError(Exception):
    """The endpoint could not be used; the message names the URL (never the key)."""


class LLMNavigator:
    """A chat model navigating a package through the agent's tools.

    ``sandbox`` is the package as the agent sees it (possibly an ablated view);
    ``catalog`` its catalog entry. ``api_key`` is sent as ``Authorization: Bearer``
    when set; the caller reads it from the environment.
    """

    def __init__(
        self,
        sandbox: Sandbox,
        catalog: CatalogEntry,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        budget: int = DEFAULT_BUDGET,
        peek: bool = False,
        timeout: float = 60.0,
        temperature: float = 0.0,
        max_result_chars: int = DEFAULT_MAX_RESULT_CHARS,
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.catalog = catalog
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + "/chat/completions"
        self.model = model
        self._api_key = api_key or None
        self.budget = budget
        self.peek = peek
        self.timeout = timeout
        self.temperature = temperature
        self.max_result_chars = max_result_chars
        self.report = report
        self.name = f"llm:{model}"
        self.tools = tool_definitions(peek=peek)

    def __repr__(self) -> str:  # the key stays out of reprs and tracebacks
        return f"LLMNavigator(url={self.url!r}, model={self.model!r}, budget={self.budget})"

    # -- a run ----------------------------------------------------------------------------

    def run(self, question: Question) -> Run:
        """Walk the package for ``question``; never raises."""
        try:
            session = _Session(self, question)
        except Exception as exc:  # the package view failed before the first request
            note = self._scrub(f"the LLM navigator could not start: {exc!r}")
            summary = Trail(self.sandbox, catalog_tokens=self.catalog.tokens).summary(self.budget)
            return Run(question, self.name, self.budget, (), summary, FAILED, note=note)
        try:
            session.loop()
        except EndpointError as exc:
            session.end(FAILED, note=str(exc))
        except Exception as exc:  # a bug or a reply shape nobody foresaw: still a run
            session.end(FAILED, note=f"the LLM navigator failed ({self.url}): {exc!r}")
        return session.result(self._scrub)

    def _scrub(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text

    # -- the endpoint ---------------------------------------------------------------------

    def complete(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """One chat completion: the reply's JSON object (with ``choices``).

        Raises :class:`EndpointError` with a plain message naming the URL.
        """
        body = {
            "model": self.model,
            "messages": messages,
            "tools": self.tools,
            "tool_choice": "auto",
            "temperature": self.temperature,
        }
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        try:
            with self._opener().open(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise EndpointError(self._scrub(self._http_error(exc))) from None
        except urllib.error.URLError as exc:
            raise EndpointError(self._scrub(self._unreachable(exc.reason))) from None
        except TimeoutError as exc:
            raise EndpointError(self._scrub(self._unreachable(exc))) from None
        except (OSError, http.client.HTTPException, ValueError) as exc:
            raise EndpointError(self._scrub(self._unreachable(exc))) from None
        try:
            reply = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            text = _quote(raw.decode("utf-8", "replace"))
            raise EndpointError(self._scrub(f"{self.url} answered with no JSON: {text}")) from None
        if not isinstance(reply, dict):
            raise EndpointError(f"{self.url} answered JSON that is not an object")
        return reply

    def _opener(self) -> urllib.request.OpenerDirector:
        """A plain opener; a local server (localhost) is reached without any proxy."""
        host = urllib.parse.urlsplit(self.url).hostname or ""
        if host in _LOOPBACK:
            return urllib.request.build_opener(urllib.request.ProxyHandler({}))
        return urllib.request.build_opener()

    def _http_error(self, exc: urllib.error.HTTPError) -> str:
        try:
            raw = exc.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            raw = ""
        message = _error_message(raw)
        reason = f" {exc.reason}" if exc.reason else ""
        said = f": {message}" if message else ""
        return f"{self.url} answered HTTP {exc.code}{reason}{said}"

    def _unreachable(self, reason: object) -> str:
        if isinstance(reason, TimeoutError):
            return f"no answer from {self.url} within {self.timeout:g} s"
        if isinstance(reason, ConnectionRefusedError):
            return f"cannot reach {self.url}: connection refused"
        if isinstance(reason, OSError) and reason.strerror:
            return f"cannot reach {self.url}: {reason.strerror}"
        return f"cannot reach {self.url}: {reason}"


class _Session:
    """One run's conversation, trail and tallies."""

    def __init__(self, navigator: LLMNavigator, question: Question) -> None:
        self.nav = navigator
        self.question = question
        self.trail = Trail(
            navigator.sandbox,
            catalog_tokens=navigator.catalog.tokens,
            preloaded=(SKILL_FILE,),
        )
        skill_text = self.trail.preloads[0].text
        prompt = system_prompt(
            navigator.catalog, skill_text, budget=navigator.budget, peek=navigator.peek
        )
        self.messages: list[dict[str, Any]] = [
            {"role": "system", "content": prompt},
            {"role": "user", "content": question.question},
        ]
        self.spent = 0  # turns, steps and refused calls alike
        self.choices: list[Choice] = []
        self.usage: dict[str, int] = {}
        self.remarks: list[str] = []
        self.warned = False
        self.ended = ""
        self.note = ""
        self.made: dict[tuple[str, str], int] = {}  # each call (tool, arguments): times made
        self._say("asking the model")

    # -- the loop -------------------------------------------------------------------------

    def loop(self) -> None:
        while not self.ended:
            if self.spent >= self.nav.budget:
                self.end(BUDGET, note=f"the budget of {self.nav.budget} tool calls ran out")
                return
            if self.nav.budget - self.spent == 1 and not self.warned:
                self.warned = True
                self.messages.append({"role": "user", "content": LAST_CALL})
            message = self._message(self.nav.complete(self.messages))
            calls = _tool_calls(message)
            self.messages.append(_assistant(message, calls))
            if not calls:
                content = message.get("content")
                self.spent += 1
                self.remarks.append("the model answered in text without calling submit_answer")
                self._submit(content if isinstance(content, str) else "")
                return
            for call in calls:
                if self.spent >= self.nav.budget:
                    break
                self._serve(call)
                if self.ended:
                    return

    def _message(self, reply: dict[str, Any]) -> dict[str, Any]:
        self._count_usage(reply.get("usage"))
        choices = reply.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            said = _error_message(json.dumps(reply.get("error"))) if "error" in reply else ""
            extra = f": {said}" if said else ""
            raise EndpointError(f"the reply from {self.nav.url} has no choices{extra}")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise EndpointError(f"the reply from {self.nav.url} has no message")
        return message

    def _count_usage(self, usage: object) -> None:
        if not isinstance(usage, dict):
            return
        for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                self.usage[key] = self.usage.get(key, 0) + value
        self.usage["requests"] = self.usage.get("requests", 0) + 1

    def _serve(self, call: dict[str, Any]) -> None:
        """Run one tool call as a turn and answer it."""
        self.spent += 1
        function = call["function"]
        name = function.get("name") if isinstance(function.get("name"), str) else ""
        raw = function.get("arguments")
        args, problem = _arguments(raw)
        tool = canonical_tool(name)
        if problem is None and tool == PEEK and not self.nav.peek:
            self.remarks.append(f"call {self.spent} (peek): peek is not available")
            self._answer(call, "Error: peek is not available; use readfile.")
            self._say("peek refused (not offered)")
        elif problem is not None:
            sent = {"arguments": raw if isinstance(raw, str) else _arguments_text(raw)}
            self.remarks.append(f"call {self.spent} ({name or 'no name'}): {problem}")
            text = f"Error: {problem}. Call {name or 'a tool'} again with a JSON object."
            step = self.trail.record(name or "?", sent, refusal=text)
            self._answer(call, step.text)
            self._say_step(step)
        elif tool == SUBMIT:
            self._submit(answer_arg(args), args=args)
            self._say(f"submit_answer ({self.ended})")
            return
        else:
            step = self._record(name, args)
            self._answer(call, self._cut(step.text))
            self._say_step(step)
        self._count(name, args if problem is None else raw)

    def _count(self, name: str, args: object) -> None:
        """Count the call; stop the walk when it has made it :data:`MAX_REPEATS` times."""
        text = args if isinstance(args, str) else json.dumps(args, sort_keys=True)
        key = (canonical_tool(name) or name, text)
        times = self.made[key] = self.made.get(key, 0) + 1
        if times >= MAX_REPEATS:
            shown = call_text(key[0], args) if isinstance(args, dict) else f"{key[0]}({text})"
            self.end(
                REPEATED,
                note=f"stopped: repeated call: {shown_arg(shown, 120)} made {times} times",
            )
            self._say(f"stopped: the same call made {times} times")

    def _say(self, text: str) -> None:
        if self.nav.report is not None:
            where = f"turn {self.spent}/{self.nav.budget}: " if self.spent else ""
            self.nav.report(f"{shown_arg(self.question.id, 40)} {where}{text}")

    def _say_step(self, step: Step) -> None:
        target = "" if step.path is None else f" {shown_arg(step.path or '.', 80)}"
        self._say(f"{step.tool}{target} ({step.status})")

    def _submit(self, answer: str, *, args: Mapping[str, Any] | None = None) -> None:
        self._record(SUBMIT, dict(args) if args is not None else {"answer": answer})
        self.end(ANSWERED if answer.strip() else GAVE_UP)

    def _record(self, tool: str, args: dict[str, Any]) -> Step:
        reach = self.trail.reach
        files, folders = list(reach.files), list(reach.folders)
        step = self.trail.record(tool, args)
        if step.path is not None and step.tool in (LISTDIR, READFILE, PEEK):
            done = {s.path for s in self.trail.steps[:-1] if s.tool == step.tool and s.ok}
            pool = folders if step.tool == LISTDIR else files
            options = tuple((p, 0.0) for p in pool if p != step.path and p not in done)
            self.choices.append(Choice(step.turn, step.tool, step.path, options))
        return step

    def _answer(self, call: dict[str, Any], text: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})

    def _cut(self, text: str) -> str:
        limit = self.nav.max_result_chars
        if len(text) <= limit:
            return text
        self.remarks.append(f"turn {len(self.trail.steps)}: result cut at {limit} characters")
        return text[:limit] + f"\n[... cut: {len(text) - limit} more characters not shown]"

    # -- the end --------------------------------------------------------------------------

    def end(self, ended: str, *, note: str = "") -> None:
        self.ended = ended
        self.note = note

    def result(self, scrub: Callable[[str], str]) -> Run:
        trail = self.trail
        steps = tuple(trail.steps)
        answer = next((s.answer or "" for s in reversed(steps) if s.tool == SUBMIT), "")
        note = "; ".join(part for part in [self.note, *self.remarks] if part)
        return Run(
            question=self.question,
            navigator=self.nav.name,
            budget=self.nav.budget,
            steps=steps,
            summary=trail.summary(self.nav.budget),
            ended=self.ended or FAILED,
            answer=answer,
            note=scrub(note),
            choices=tuple(self.choices),
            usage=dict(self.usage),
            preloaded=trail.preloaded,
        )


# -- reply shapes -----------------------------------------------------------------------


def _tool_calls(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The message's function calls, each with an ``id`` and a ``function`` object."""
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        return []
    found = []
    for number, call in enumerate(calls, start=1):
        if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
            continue
        call_id = call.get("id") if isinstance(call.get("id"), str) and call["id"] else ""
        found.append(
            {
                "id": call_id or f"call_{number}",
                "type": "function",
                "function": dict(call["function"]),
            }
        )
    return found


def _assistant(message: Mapping[str, Any], calls: list[dict[str, Any]]) -> dict[str, Any]:
    """The assistant message as sent back in the next request."""
    content = message.get("content")
    reply: dict[str, Any] = {
        "role": "assistant",
        "content": content if isinstance(content, str) else "",
    }
    if calls:
        reply["tool_calls"] = [
            {
                **call,
                "function": {
                    "name": call["function"].get("name", ""),
                    "arguments": _arguments_text(call["function"].get("arguments")),
                },
            }
            for call in calls
        ]
    return reply


def _arguments_text(arguments: object) -> str:
    """A call's arguments as sent back: a string holding JSON, as strict servers require
    (arguments that are not JSON go back as ``{"arguments": <the text>}``, as logged)."""
    if isinstance(arguments, str):
        if not arguments.strip():
            return "{}"
        try:
            json.loads(arguments)
        except ValueError:
            return json.dumps({"arguments": arguments}, ensure_ascii=False)
        return arguments
    return json.dumps(arguments if arguments is not None else {}, ensure_ascii=False)


def _arguments(arguments: object) -> tuple[dict[str, Any], str | None]:
    """The call's arguments as an object, or the problem with them."""
    if arguments is None:
        return {}, None
    if isinstance(arguments, dict):
        return dict(arguments), None
    if not isinstance(arguments, str):
        return {}, "the arguments must be a JSON object"
    if not arguments.strip():
        return {}, None
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError as exc:
        return {}, f"the arguments are not valid JSON ({exc.msg} at column {exc.colno})"
    if not isinstance(value, dict):
        return {}, "the arguments must be a JSON object"
    return value, None


def _error_message(raw: str) -> str:
    """An endpoint's error message: ``error.message`` of a JSON body, or the body."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return _quote(raw)
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict):
            for key in ("message", "detail", "error"):
                if isinstance(error.get(key), str):
                    return _quote(error[key])
        if isinstance(error, str):
            return _quote(error)
        if isinstance(data.get("detail"), str):
            return _quote(data["detail"])
    return _quote(raw)


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _ERROR_CHARS else text[: _ERROR_CHARS - 3] + "..."
