"""A local stand-in for an OpenAI-compatible chat completions endpoint.

``StubServer(script)`` listens on 127.0.0.1 (a free port) in a thread and answers each
``POST .../chat/completions`` with the next item of ``script``:

- a dict: an assistant message, sent as ``{"choices": [{"message": ...}], "usage": ...}``;
- a :class:`Raw`: that status and body as they are;
- :data:`HANG`: no answer until the test ends (the handler waits on an Event);
- a callable: called with the request's JSON body, returning one of the above.

When the script runs out the last item is repeated. Every request is recorded
(:attr:`StubServer.requests`: path, headers, JSON body).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HANG = "hang"
USAGE = {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}


@dataclass(frozen=True)
class Raw:
    status: int
    body: bytes
    content_type: str = "application/json"


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any] = field(default_factory=dict)


def call(name: str, arguments: Any, call_id: str = "") -> dict[str, Any]:
    """A tool call as a chat completion carries it (``arguments`` a JSON string)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "id": call_id or f"call_{name}_{abs(hash(text)) % 10_000}",
        "type": "function",
        "function": {"name": name, "arguments": text},
    }


def assistant(*calls: dict[str, Any], content: str | None = None) -> dict[str, Any]:
    """An assistant message holding ``calls``."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = list(calls)
    return message


class StubServer:
    def __init__(self, script: list[Any], *, usage: dict[str, int] | None = USAGE) -> None:
        self.script = list(script)
        self.usage = usage
        self.requests: list[Request] = []
        self.release = threading.Event()
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                with stub._lock:
                    stub.requests.append(Request(self.path, dict(self.headers), body))
                    index = min(len(stub.requests), len(stub.script)) - 1
                    item = stub.script[index] if stub.script else Raw(500, b"{}")
                if callable(item):
                    item = item(body)
                if item == HANG:
                    stub.release.wait()
                    return
                if isinstance(item, Raw):
                    self._send(item.status, item.body, item.content_type)
                    return
                reply: dict[str, Any] = {
                    "id": f"chatcmpl-{len(stub.requests)}",
                    "object": "chat.completion",
                    "choices": [{"index": 0, "message": item, "finish_reason": "stop"}],
                }
                if stub.usage is not None:
                    reply["usage"] = stub.usage
                self._send(200, json.dumps(reply).encode("utf-8"), "application/json")

            def _send(self, status: int, body: bytes, content_type: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass  # keep the test output clean

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # A short poll interval makes shutdown() prompt (the default is half a second).
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> StubServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


Reply = dict[str, Any] | Raw | str | Callable[[dict[str, Any]], Any]
