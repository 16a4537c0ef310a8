"""The agent's tools and exactly what each returns.

The minimal tool set of the Knowledge-as-Skill evaluation, plus an optional ``peek``:

- ``readfile(path)``: the file's whole text as on disk, frontmatter included (decoded
  as UTF-8: a BOM is dropped, line endings are kept).
- ``peek(path)``: only the frontmatter block, from the opening ``---`` line to the
  closing one (a sentence saying so when the file has none).
- ``listdir(path)``: the folder's entries, one per line, sorted, folders with a
  trailing ``/``, hidden entries left out.
- ``submit_answer(answer)``: ends the walk; the agent receives nothing back.

A call that cannot be served (no such path, a path leaving the package, a folder given
to ``readfile``...) is not an exception: it is an :class:`Outcome` whose ``text`` is the
error message the agent would read. Paths follow :meth:`Sandbox.locate`. A path that
names nothing and holds an HTML character reference (``index.md&#34;``: a model's
escaped quote) is a ``bad-call``, its message saying so, not a plain missing file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from kas_tui.core.fileio import os_reason
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.features.agent.sandbox import FILE, FOLDER, MISSING, OUTSIDE, Location, Sandbox
from kas_tui.text.wording import visible

LISTDIR = "listdir"
READFILE = "readfile"
PEEK = "peek"
SUBMIT = "submit_answer"
#: The minimal tool set; ``peek`` is an option.
MINIMAL_TOOLS = (LISTDIR, READFILE, SUBMIT)
ALL_TOOLS = (LISTDIR, READFILE, PEEK, SUBMIT)

# Outcome statuses.
OK = "ok"
WRONG_KIND = "wrong-kind"  # readfile or peek of a folder, listdir of a file
UNREADABLE = "unreadable"  # binary, not UTF-8, permission denied...
BAD_CALL = "bad-call"  # unknown tool, missing argument, a path with HTML escapes
# MISSING and OUTSIDE come from the sandbox.

#: Argument names harnesses use for the path and for the answer, preferred first.
PATH_KEYS = ("path", "file_path", "filepath", "file", "filename", "dir", "directory", "folder")
ANSWER_KEYS = ("answer", "text", "content", "response")

_ALIASES = {
    "listdir": LISTDIR,
    "listdirectory": LISTDIR,
    "ls": LISTDIR,
    "readfile": READFILE,
    "read": READFILE,
    "peek": PEEK,
    "peekfrontmatter": PEEK,
    "submitanswer": SUBMIT,
    "submit": SUBMIT,
}


def canonical_tool(name: str) -> str | None:
    """``readfile`` for ``read_file``, ``readFile``...; ``None`` for an unknown tool."""
    return _ALIASES.get(name.replace("_", "").replace("-", "").lower())


def path_arg(args: Mapping[str, Any]) -> str | None:
    """The path argument of a call, under any of :data:`PATH_KEYS`."""
    for key in PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str):
            return value
    return None


def answer_arg(args: Mapping[str, Any]) -> str:
    """The answer of a ``submit_answer`` call (``''`` when there is none)."""
    for key in ANSWER_KEYS:
        value = args.get(key)
        if isinstance(value, str):
            return value
    return ""


def call_text(tool: str, args: Mapping[str, Any]) -> str:
    """What the model writes to make the call: ``readfile({"path": "index.md"})``.

    Its token estimate is the cost of the call itself (the model's output); harness
    framing around it (tool-use markers, ids) is left out as it is the same every turn.
    """
    return f"{tool}({json.dumps(dict(args), ensure_ascii=False)})"


@dataclass(frozen=True)
class Outcome:
    """The result of one call: ``text`` is exactly what the agent receives.

    ``path`` is the package-relative target (``None`` for ``submit_answer`` or a call
    without a path); ``entries`` are a listing's names; ``cut_from`` is the length of
    the whole text when :func:`cut` shortened it.
    """

    tool: str
    status: str
    text: str
    path: str | None = None
    entries: tuple[str, ...] = ()
    cut_from: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == OK


def cut(outcome: Outcome, limit: int) -> Outcome:
    """``outcome`` with a text over ``limit`` characters cut there and a note saying so
    (a listing keeps only the entries shown whole)."""
    text = outcome.text
    if len(text) <= limit:
        return outcome
    shown = text[:limit]
    note = f"\n\n[cut: {len(text):,} characters, only the first {limit:,} are returned]"
    entries = outcome.entries
    if entries:
        entries = entries[: shown.count("\n") + (text[limit : limit + 1] == "\n")]
    return replace(outcome, text=shown + note, entries=entries, cut_from=len(text))


def run_tool(sandbox: Sandbox, tool: str, args: Mapping[str, Any]) -> Outcome:
    """Serve one call against the package; never raises for a bad call."""
    name = canonical_tool(tool)
    if name is None:
        tools = ", ".join(ALL_TOOLS)
        return Outcome(tool, BAD_CALL, f"Error: unknown tool {tool!r}; the tools are {tools}")
    if name == SUBMIT:
        return Outcome(name, OK, "")
    raw = path_arg(args)
    if raw is None:
        return Outcome(name, BAD_CALL, f"Error: {name} needs a 'path' argument")
    where = sandbox.locate(raw)
    escape = _HTML_ESCAPE.search(raw) if where.kind == MISSING else None
    if escape is not None:
        text = (
            f"Error: no such file or folder: {shown_arg(raw)} (it holds {escape.group()}, "
            "an HTML character reference: send the path as plain text, without escapes)"
        )
        return Outcome(name, BAD_CALL, text, where.path)
    if where.kind in (MISSING, OUTSIDE):
        return Outcome(name, where.kind, _not_there(where, sandbox), where.path)
    if name == LISTDIR:
        return _listdir(sandbox, where)
    if where.kind != FILE:
        text = f"Error: {raw} is a folder, not a file; use listdir to see what it holds"
        return Outcome(name, WRONG_KIND, text, where.path)
    try:
        text = sandbox.read_text(where.path)
    except FormatError as exc:
        return Outcome(name, UNREADABLE, f"Error: cannot read {raw}: {exc.message}", where.path)
    except OSError as exc:
        return Outcome(name, UNREADABLE, f"Error: cannot read {raw}: {os_reason(exc)}", where.path)
    if name == PEEK:
        text = _frontmatter(raw, text)
    return Outcome(name, OK, text, where.path)


#: An HTML character reference: ``&#34;``, ``&#x22;``, ``&quot;``...
_HTML_ESCAPE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|quot|amp|apos|lt|gt);")


def _not_there(where: Location, sandbox: Sandbox) -> str:
    arg = shown_arg(where.arg)
    if where.kind == OUTSIDE:
        return (
            f"Error: {arg} is outside the skill folder {sandbox.home}; "
            "only files inside it can be opened"
        )
    return f"Error: no such file or folder: {arg}"


def shown_arg(arg: str, limit: int = 200) -> str:
    """A path argument as an error message may repeat it: control characters escaped
    (a NUL as ``\\x00``), cut to ``limit`` characters with the length said."""
    text = visible(arg[: limit + 1])
    if len(arg) > limit:
        return f"{text[:limit]}… ({len(arg):,} characters)"
    return text


def _listdir(sandbox: Sandbox, where: Location) -> Outcome:
    if where.kind != FOLDER:
        text = f"Error: {where.arg} is a file, not a folder; use readfile to read it"
        return Outcome(LISTDIR, WRONG_KIND, text, where.path)
    try:
        entries = tuple(sandbox.listdir(where.path))
    except OSError as exc:
        text = f"Error: cannot list {where.arg}: {os_reason(exc)}"
        return Outcome(LISTDIR, UNREADABLE, text, where.path)
    return Outcome(LISTDIR, OK, "\n".join(entries), where.path, entries)


def _frontmatter(raw: str, text: str) -> str:
    """The frontmatter block of ``text``, or a sentence saying why there is none."""
    try:
        block = fm.find_block(text)
    except FormatError as exc:
        return f"{raw}: {exc.message}"
    if block is None:
        return f"{raw} has no YAML frontmatter"
    return text[: block.end]
