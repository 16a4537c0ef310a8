"""What a served package's three tools say to the model, and the arguments they take.

The descriptions and the input schemas are the first thing an agent reads about the
package after its catalog entry, so they are written like an index description: what
the tool returns, when to use it rather than another, and its limits (the size cut, the
path length) stated where the model will see them. A call whose arguments the schema
does not allow (an argument it does not name, a missing or non-string ``path``, a path
over :data:`~kas_tui.features.agent.sandbox.MAX_PATH_CHARS` characters) is refused
with one line saying what was wrong and how to call the tool instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kas_tui.features.agent.sandbox import MAX_PATH_CHARS
from kas_tui.features.agent.tools import LISTDIR, PEEK, READFILE, shown_arg
from kas_tui.text.wording import json_kind

#: The most characters one answer carries; a longer one is cut, with a note saying so.
MAX_RESPONSE = 200_000

#: The tools a served package offers (``submit_answer`` is the client's own business).
SERVED_TOOLS = (LISTDIR, READFILE, PEEK)

DESCRIPTIONS = {
    LISTDIR: (
        "List one folder of this knowledge package: its files and subfolders, one per "
        "line, sorted by name, each subfolder ending in '/'. Call it with path '' for "
        "the package root. Most folders also hold an index.md describing each entry in "
        "one sentence: reading that (readfile) usually tells you more than the bare "
        "listing."
    ),
    READFILE: (
        "Read one file of this knowledge package: its text exactly as stored, YAML "
        "frontmatter included. Start from SKILL.md, then each folder's index.md, which "
        "lists the folder's entries with a one-sentence description each, so you can go "
        f"straight to the document you need. An answer holds at most {MAX_RESPONSE:,} "
        "characters: a longer file is cut there and the answer ends with a note giving "
        "its full length. A folder cannot be read: use listdir."
    ),
    PEEK: (
        "Read only the YAML frontmatter of a document (its type, title, description, "
        "tags, sources and freshness), not its body: much cheaper than readfile when "
        "deciding whether a document is the one you need. A file without frontmatter "
        "gets a sentence saying so."
    ),
}

_PATH_RULES = (
    f" At most {MAX_PATH_CHARS:,} characters. A path leaving the package ('..', an "
    "absolute path elsewhere) or naming a hidden file is refused."
)
PATH_HELP = {
    LISTDIR: (
        "The folder to list, relative to the package root, with '/' between folders: "
        "'' (the default) for the root, 'incidents' for a subfolder." + _PATH_RULES
    ),
    READFILE: (
        "The file to read, relative to the package root, with '/' between folders: "
        "'SKILL.md', 'incidents/index.md'." + _PATH_RULES
    ),
    PEEK: (
        "The document whose frontmatter to read, relative to the package root, with "
        "'/' between folders: 'incidents/severity-levels.md'." + _PATH_RULES
    ),
}


def input_schema(tool: str) -> dict[str, Any]:
    """The JSON Schema of ``tool``'s arguments: one string ``path``, nothing else."""
    path: dict[str, Any] = {
        "type": "string",
        "description": PATH_HELP[tool],
        "maxLength": MAX_PATH_CHARS,
    }
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"path": path},
        "additionalProperties": False,
    }
    if tool == LISTDIR:
        path["default"] = ""
    else:
        schema["required"] = ["path"]
    return schema


def with_defaults(tool: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as the call is served: ``listdir`` without a path lists the root."""
    if tool == LISTDIR and "path" not in args:
        return {**args, "path": ""}
    return dict(args)


def argument_problem(tool: str, args: Mapping[str, Any]) -> str:
    """Why ``args`` do not fit ``tool``'s schema, in one line (``''`` when they do)."""
    extra = [key for key in args if key != "path"]
    if extra:
        named = ", ".join(repr(shown_arg(key, 40)) for key in extra[:3])
        more = f" and {len(extra) - 3:,} more" if len(extra) > 3 else ""
        return (
            f"Error: {tool} takes one argument, 'path'; remove {named}{more} and call it "
            f'again as {tool}({{"path": ...}})'
        )
    if "path" not in args:
        return (
            f"Error: {tool} needs a 'path' argument: the file's path relative to the "
            "package root, such as 'index.md'"
        )
    value = args["path"]
    if not isinstance(value, str):
        return (
            f"Error: the 'path' of {tool} must be a string (a path relative to the "
            f"package root, such as 'index.md'), not {json_kind(value)}"
        )
    if len(value) > MAX_PATH_CHARS:
        return (
            f"Error: the path given to {tool} is {len(value):,} characters long; a path "
            f"has at most {MAX_PATH_CHARS:,}"
        )
    return ""


def unknown_tool(name: object) -> str:
    """The answer to a call of a tool the server does not have."""
    shown = repr(shown_arg(name, 60)) if isinstance(name, str) else json_kind(name)
    return f"Error: unknown tool {shown}; this package's tools are listdir, readfile and peek"
