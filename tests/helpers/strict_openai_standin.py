"""A stand-in for a strict OpenAI-compatible chat completions server (no network).

OpenAI's own endpoint is lenient about some request shapes that compatible servers
(llama-cpp-python's ``llama_cpp.server``, whose request schema is a set of pydantic
models) refuse: an assistant message with ``"content": null`` beside its
``tool_calls`` is answered ``HTTP 500`` there. :class:`StrictStandIn` checks every
request the way such a server does before answering it from its script (as
:class:`~tests.helpers.llm_stub.StubServer` does; the lenient case is that stub):

- ``model`` a string, ``messages`` a non-empty list, each ``tools`` item a function
  with a name and a ``parameters`` object;
- every message's ``role`` one of system, user, assistant, tool, and its ``content`` a
  string (``null`` refused, for the assistant too);
- roles in order: system messages first, then a user message; an assistant message
  follows a user or tool message; tool messages follow the assistant message holding
  their calls; the last message is a user or tool message;
- each tool call has a non-empty string ``id``, ``type`` ``function``, a ``name`` and
  ``arguments`` as a string holding JSON; the tool messages after it answer exactly
  those ids, each once, and no other;
- ``tool_choice`` is ``auto``, ``none``, ``required`` or names a function.

A request breaking a rule is answered with :attr:`StrictStandIn.status` (500, as
llama-cpp-python did) and a JSON error naming the first rule broken; every such
answer is kept in :attr:`StrictStandIn.refused`.
"""

from __future__ import annotations

import json
from typing import Any

from tests.helpers.llm_stub import Raw, StubServer

ROLES = ("system", "user", "assistant", "tool")


def request_problems(body: Any) -> list[str]:
    """What a strict server refuses in the request ``body`` (empty: accepted)."""
    if not isinstance(body, dict):
        return ["the body is not a JSON object"]
    problems: list[str] = []
    if not isinstance(body.get("model"), str):
        problems.append("model: a string is required")
    problems += _tools_problems(body.get("tools"), body.get("tool_choice"))
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return [*problems, "messages: a non-empty list is required"]
    previous = ""
    open_calls: list[str] = []  # ids of the last assistant message not answered yet
    for number, message in enumerate(messages):
        where = f"messages[{number}]"
        if not isinstance(message, dict):
            problems.append(f"{where}: not an object")
            continue
        role = message.get("role")
        if role not in ROLES:
            problems.append(f"{where}.role: {role!r} is not one of {', '.join(ROLES)}")
            continue
        if not isinstance(message.get("content"), str):
            kind = "null" if message.get("content") is None else type(message["content"]).__name__
            problems.append(f"{where}.content: a string is required, not {kind}")
        problems += _order_problems(where, role, previous, open_calls)
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in open_calls:
                problems.append(f"{where}.tool_call_id: {call_id!r} answers no open tool call")
            else:
                open_calls.remove(call_id)
        elif role == "assistant":
            ids, call_problems = _calls(where, message.get("tool_calls"))
            problems += call_problems
            open_calls = ids
        previous = role
    if open_calls:
        problems.append(f"tool calls {', '.join(open_calls)} have no tool message")
    if previous not in ("user", "tool"):
        problems.append(f"the last message is {previous!r}; a user or tool message is required")
    return problems


def _order_problems(where: str, role: str, previous: str, open_calls: list[str]) -> list[str]:
    if role == "system" and previous not in ("", "system"):
        return [f"{where}: a system message after a {previous} message"]
    if role == "user" and open_calls:
        return [f"{where}: a user message before the tool calls are answered"]
    if role == "assistant" and previous not in ("user", "tool"):
        return [f"{where}: an assistant message after {previous or 'nothing'}"]
    if role == "assistant" and open_calls:
        return [f"{where}: an assistant message before the tool calls are answered"]
    if role == "tool" and previous not in ("assistant", "tool"):
        return [f"{where}: a tool message after {previous or 'nothing'}"]
    return []


def _calls(where: str, calls: Any) -> tuple[list[str], list[str]]:
    """The ids of an assistant message's tool calls and what is wrong with them."""
    if calls is None:
        return [], []
    if not isinstance(calls, list) or not calls:
        return [], [f"{where}.tool_calls: a non-empty list is required"]
    ids: list[str] = []
    problems: list[str] = []
    for number, call in enumerate(calls):
        at = f"{where}.tool_calls[{number}]"
        if not isinstance(call, dict):
            problems.append(f"{at}: not an object")
            continue
        call_id = call.get("id")
        if not isinstance(call_id, str) or not call_id:
            problems.append(f"{at}.id: a non-empty string is required")
        elif call_id in ids:
            problems.append(f"{at}.id: {call_id!r} is used twice")
        else:
            ids.append(call_id)
        if call.get("type") != "function":
            problems.append(f"{at}.type: 'function' is required")
        function = call.get("function")
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            problems.append(f"{at}.function.name: a string is required")
            continue
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            problems.append(f"{at}.function.arguments: a string is required")
        else:
            try:
                json.loads(arguments)
            except ValueError:
                problems.append(f"{at}.function.arguments: not JSON")
    return ids, problems


def _tools_problems(tools: Any, choice: Any) -> list[str]:
    problems: list[str] = []
    if tools is not None:
        if not isinstance(tools, list):
            return ["tools: a list is required"]
        for number, tool in enumerate(tools):
            function = tool.get("function") if isinstance(tool, dict) else None
            if (
                not isinstance(tool, dict)
                or tool.get("type") != "function"
                or not isinstance(function, dict)
                or not isinstance(function.get("name"), str)
                or not isinstance(function.get("parameters", {}), dict)
            ):
                problems.append(f"tools[{number}]: a function with a name and parameters")
    named = isinstance(choice, dict) and isinstance(choice.get("function"), dict)
    if choice is not None and choice not in ("auto", "none", "required") and not named:
        problems.append(f"tool_choice: {choice!r} is not allowed")
    return problems


class StrictStandIn(StubServer):
    """A :class:`StubServer` that refuses what a strict server refuses (see the module
    docstring) before answering from its script."""

    def __init__(self, script: list[Any], *, status: int = 500, **kwargs: Any) -> None:
        self.status = status
        self.refused: list[list[str]] = []
        super().__init__([self._checked(item) for item in script], **kwargs)

    def _checked(self, item: Any) -> Any:
        def answer(body: dict[str, Any]) -> Any:
            problems = request_problems(body)
            if problems:
                self.refused.append(problems)
                error = {"error": {"message": problems[0], "type": "invalid_request_error"}}
                return Raw(self.status, json.dumps(error).encode("utf-8"))
            return item(body) if callable(item) else item

        return answer
