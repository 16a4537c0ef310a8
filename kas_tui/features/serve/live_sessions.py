"""Which logged session each request belongs to, and when a session ends.

**With the initialize handshake** (protocols up to 2025-11-25) a session is a
connection as the SDK keeps it: the stdio pipe, or one streamable-HTTP session (its
``Mcp-Session-Id``). It starts at ``initialize``, which writes the log's header, and
ends when the SDK closes the connection: the client's ``DELETE``, the SDK's idle
timeout (:data:`IDLE_TIMEOUT` without a request), the end of stdin, a crash. The SDK
reports that end by unwinding the connection's exit stack (``serve_connection`` in
``mcp.server.runner``, run by ``StreamableHTTPSessionManager`` for every session);
the session's end is pushed on it at ``initialize``, and drops the session's state.
At most :data:`MAX_LIVE_SESSIONS` such HTTP sessions are open at once: the SDK answers
a client opening one more ``503 Too many open sessions``, and the open ones, the
oldest included, go on until they end.

**Protocol 2026-07-28 has no session**: each request stands alone, naming its client
in ``_meta``. A client starts with ``server/discover``; over HTTP its requests then
come on the TCP connections it keeps open. So a ``server/discover`` on a new
connection starts a session; any request on a connection already seen belongs to that
connection's session; a request on a new connection (the client reconnected after a
pause, or opened a second connection for parallel calls) joins the latest session of
the same client name from the same address, or starts one. Two clients connected at
the same time get a log each, whatever their names. Such a session ends after
:data:`IDLE_TIMEOUT` without a request (checked at each request) or, when
:data:`MAX_LIVE_SESSIONS` sessions are live, when a new one needs room: the least
recently active sessionless one is closed (its client's next call starts a new log).

**A question named by the client** makes the session an evaluation run
(``kas-tui eval --sessions``): a ``questionId`` field of ``initialize``'s
``clientInfo`` (or of the client info in ``_meta``), a ``question=ID`` word in the
client's name, or ``"kas-tui/question": "ID"`` in any request's ``_meta``. The log's
header records it (:meth:`Session.name_question`). A request naming another question
than the session's, once the session has made a call, ends that session and starts a
new log, so a client may answer several questions on one connection.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import OrderedDict
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.to_thread
from mcp.server.connection import Connection
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT
from mcp.shared.jsonrpc_dispatcher import handler_exception_to_error_data
from mcp_types import CLIENT_INFO_META_KEY
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from kas_tui.features.agent.tools import shown_arg
from kas_tui.features.serve.client_session import ServedPackage, Session
from kas_tui.features.serve.tool_schemas import SERVED_TOOLS, unknown_tool

#: Seconds without a request after which a session ends (the SDK's own default).
IDLE_TIMEOUT: float = DEFAULT_SESSION_IDLE_TIMEOUT

#: The most sessions live at once (see the module docstring for what happens beyond).
MAX_LIVE_SESSIONS = 100

#: The session of the request being served (set around each request by the middleware).
_current: ContextVar[Session | None] = ContextVar("kas_tui_served_session", default=None)

_STATE_KEY = "kas-tui.session"

Peer = tuple[str, int]

#: The ``_meta`` key a request names its question with.
QUESTION_META_KEY = "kas-tui/question"
_QUESTION_IN_NAME = re.compile(r"(?:^|\s)question=(\S+)")


@dataclass(eq=False)
class _Live:
    session: Session
    #: (client address, client name) of a sessionless client; None: ended by the SDK
    group: tuple[str | None, str] | None
    last: float
    peers: set[Peer] = field(default_factory=set)


class Sessions:
    """The live sessions of one server (see the module docstring).

    ``clock`` gives the time in seconds (monotonic); tests pass their own.
    """

    def __init__(
        self,
        served: ServedPackage,
        log_dir: Path | None,
        transport: str,
        *,
        limit: int = MAX_LIVE_SESSIONS,
        idle_timeout: float = IDLE_TIMEOUT,
        clock: Any = time.monotonic,
    ) -> None:
        self.served = served
        self.log_dir = log_dir
        self.transport = transport
        self.limit = limit
        self.idle_timeout = idle_timeout
        self._clock = clock
        self._live: OrderedDict[Session, _Live] = OrderedDict()  # least recently active first
        self._by_peer: dict[Peer, _Live] = {}
        self._said = ""

    @property
    def live(self) -> int:
        """How many sessions are live."""
        return len(self._live)

    def of(self, ctx: Any) -> Session:
        """The session of the request ``ctx`` (a tool's context or the SDK's request
        context) belongs to."""
        session = _current.get()
        if session is not None:
            return session
        return self.resolve(getattr(ctx, "request_context", ctx))

    def resolve(self, ctx: ServerRequestContext[Any, Any]) -> Session:
        """Find or start the session of one request (see the module docstring)."""
        now = self._clock()
        self._expire(now)
        connection = _connection_of(ctx)
        if connection is not None and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            live = connection.state.get(_STATE_KEY)
            if not isinstance(live, _Live) or live.session.ended:
                live = self._start(ctx, None, now)
                connection.state[_STATE_KEY] = live
                connection.exit_stack.callback(self.end, live.session)
        else:
            live = self._sessionless(ctx, now)
        question = _question_of(ctx)
        if question and question != live.session.question_id:
            if live.session.question_id and live.session.trail.steps:
                live = self._next_question(ctx, live, connection, now)
            live.session.name_question(question)
        live.last = now
        self._live.move_to_end(live.session)
        return live.session

    def _sessionless(self, ctx: ServerRequestContext[Any, Any], now: float) -> _Live:
        peer = _peer(ctx)
        group = (peer[0] if peer else None, _client_name(ctx))
        live = self._by_peer.get(peer) if peer is not None else None
        if live is not None and live.group != group:  # the port now serves another client
            live = None
        if live is None:
            latest = next((v for v in reversed(self._live.values()) if v.group == group), None)
            discovering = ctx.method == "server/discover"
            if latest is not None and (
                not discovering or (peer is None and not latest.session.trail.steps)
            ):
                live = latest
            else:
                live = self._start(ctx, group, now)
        if peer is not None and peer not in live.peers:
            live.peers.add(peer)
            self._by_peer[peer] = live
        return live

    def _next_question(
        self,
        ctx: ServerRequestContext[Any, Any],
        old: _Live,
        connection: Connection | None,
        now: float,
    ) -> _Live:
        """End ``old`` (its client went on to another question) and start its successor
        on the same connection or peers."""
        live = self._start(ctx, old.group, now)
        if old.group is None and connection is not None:
            connection.state[_STATE_KEY] = live
            connection.exit_stack.callback(self.end, live.session)
        for peer in old.peers:
            live.peers.add(peer)
            self._by_peer[peer] = live
        self.end(old.session)
        return live

    def _start(
        self, ctx: ServerRequestContext[Any, Any], group: tuple[str | None, str] | None, now: float
    ) -> _Live:
        session = Session(
            self.served,
            client=_client_name(ctx),
            log_dir=self.log_dir,
            transport=self.transport,
            question_id=_question_of(ctx),
        )
        session.start()
        if session.log_problem and session.log_problem != self._said:
            self._said = session.log_problem  # once, not at every session
            print(
                f"kas-tui serve: warning: {self._said}; sessions are served, not logged",
                file=sys.stderr,
            )
        live = _Live(session, group, now)
        self._live[session] = live
        if len(self._live) > self.limit:
            oldest = next((v for v in self._live.values() if v.group is not None), None)
            if oldest is not None and oldest is not live:
                self.end(oldest.session)
        return live

    def _expire(self, now: float) -> None:
        idle = [
            v.session
            for v in self._live.values()
            if v.group is not None and now - v.last > self.idle_timeout
        ]
        for session in idle:
            self.end(session)

    def end(self, session: Session) -> None:
        """End ``session``: its log is complete, its state dropped."""
        live = self._live.pop(session, None)
        if live is not None:
            for peer in live.peers:
                if self._by_peer.get(peer) is live:
                    del self._by_peer[peer]
        session.close()

    def close(self) -> None:
        """End every live session (the server is stopping)."""
        for session in list(self._live):
            self.end(session)

    async def middleware(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """The SDK middleware: each request finds its session (``initialize`` starts one
        and writes its log's header); every ``tools/call`` the tools never see (an
        unknown tool, parameters the SDK refuses) is logged as the client received it."""
        if ctx.request_id is None:  # a notification: no session business
            return await call_next(ctx)
        session = self.resolve(ctx)
        token = _current.set(session)
        try:
            if ctx.method != "tools/call":
                return await call_next(ctx)
            return await _tool_call(session, ctx, call_next)
        finally:
            _current.reset(token)


async def _tool_call(
    session: Session, ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> HandlerResult:
    params = ctx.params if isinstance(ctx.params, Mapping) else {}
    name = params.get("name")
    tool = shown_arg(name, 200) if isinstance(name, str) and name else json.dumps(name)[:200]
    raw = params.get("arguments")
    args = dict(raw) if isinstance(raw, Mapping) else {} if raw is None else {"arguments": raw}
    try:
        result = await call_next(ctx)
    except Exception as exc:
        error = handler_exception_to_error_data(exc)
        if error is not None:  # refused by the SDK: the client gets this JSON-RPC error
            await anyio.to_thread.run_sync(session.refuse, tool, args, f"Error: {error.message}")
        raise
    if name in SERVED_TOOLS:
        return result  # answered and logged by the tool itself
    text = unknown_tool(name)
    await anyio.to_thread.run_sync(session.refuse, tool, args, text)
    if isinstance(result, dict):
        result = {**result, "content": [{"type": "text", "text": text}], "isError": True}
    return result


def _connection_of(ctx: ServerRequestContext[Any, Any]) -> Connection | None:
    """The SDK connection a request came on.

    mcp 2.3 documents the connection's ``state`` and ``exit_stack`` for handlers and
    middleware (per-connection state, cleanup when the connection closes) but hands them
    the connection only inside the per-request session object; tests pin this, so an
    SDK that moves it fails them rather than merging clients.
    """
    connection = getattr(ctx.session, "_connection", None)
    return connection if isinstance(connection, Connection) else None


def _peer(ctx: ServerRequestContext[Any, Any]) -> Peer | None:
    """The client's address and port (its TCP connection), for a request over HTTP."""
    client = getattr(ctx.request, "client", None)
    host, port = getattr(client, "host", None), getattr(client, "port", None)
    return (host, port) if isinstance(host, str) and isinstance(port, int) else None


def _client_info(ctx: ServerRequestContext[Any, Any]) -> Any:
    """The client info as sent: ``initialize``'s, else the request's ``_meta``'s, else
    the one the connection was initialized with."""
    params = ctx.params if isinstance(ctx.params, Mapping) else {}
    info: Any = params.get("clientInfo") if ctx.method == "initialize" else None
    if info is None:
        meta = params.get("_meta")
        info = meta.get(CLIENT_INFO_META_KEY) if isinstance(meta, Mapping) else None
    if info is None:
        known = ctx.session.client_params
        info = known.client_info.model_dump() if known is not None else {}
    return info


def _question_of(ctx: ServerRequestContext[Any, Any]) -> str:
    """The question id the request names (see the module docstring), or ``''``."""
    params = ctx.params if isinstance(ctx.params, Mapping) else {}
    meta = params.get("_meta")
    found: Any = meta.get(QUESTION_META_KEY) if isinstance(meta, Mapping) else None
    info = _client_info(ctx) if found is None else None
    if isinstance(info, Mapping):
        found = info.get("questionId")
        name = info.get("name")
        if found is None and isinstance(name, str):
            match = _QUESTION_IN_NAME.search(name)
            found = match.group(1) if match else None
    if isinstance(found, int) and not isinstance(found, bool):
        found = str(found)
    return shown_arg(found.strip(), 100) if isinstance(found, str) else ""


def _client_name(ctx: ServerRequestContext[Any, Any]) -> str:
    """The client's ``name version``: from ``initialize``, else the request's ``_meta``."""
    info = _client_info(ctx)
    if not isinstance(info, Mapping):
        return ""
    name, version = info.get("name"), info.get("version")
    text = " ".join(v for v in (name, version) if isinstance(v, str) and v)
    return shown_arg(text, 100)
