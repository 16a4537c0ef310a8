"""The files a shell command reads or lists, as an agent's shell call runs it.

Agents without a read tool (Codex) or with one they do not always use (Claude Code's
Bash, Gemini CLI's ``run_shell_command``) read with ``cat``, ``head``, ``tail``,
``sed -n``, ``nl``, ``less`` or ``more``, and list with ``ls``, ``find`` or ``tree``.
:func:`shell_calls` finds those in a command line: a ``bash -lc '...'`` wrapper is
unwrapped, the script split at ``&&``, ``||``, ``;``, ``|`` and new lines, a ``cd``
followed for the commands after it, redirection targets left out. A head or a sed range
counts as a read (the agent saw the start of the file, which is where a page's answer
begins). Anything the parser cannot split (unbalanced quotes) names nothing.
"""

from __future__ import annotations

import posixpath
import shlex

from kas_tui.features.agent.tools import LISTDIR, READFILE
from kas_tui.features.evaluate.transcripts.record import absolute

SHELLS = {"bash", "sh", "zsh", "dash"}
READERS = {"cat", "head", "tail", "nl", "less", "more", "bat", "sed"}
LISTERS = {"ls", "find", "tree"}
_SEPARATORS = {"&&", "||", ";", "|", "&", ";;", "|&"}
_REDIRECTS = {">", ">>", "<", "<<", ">&", "<&", "&>", ">|", "<<<", "&>>"}
#: Options that take a value, per program (``head -n 20``, ``sed -e SCRIPT``).
_VALUED = {
    "head": {"-n", "-c", "--lines", "--bytes"},
    "tail": {"-n", "-c", "--lines", "--bytes"},
    "sed": {"-e", "-f", "--expression", "--file", "-l"},
    "nl": {"-b", "-s", "-v", "-w", "-i", "-n"},
    "tree": {"-L", "-P", "-I"},
}


def unwrap(command: str) -> str:
    """The script of ``bash -lc 'script'`` (and of ``sh -c``, ``zsh -lc``...)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    if len(argv) >= 3 and posixpath.basename(argv[0]) in SHELLS and argv[1] in ("-c", "-lc"):
        return argv[2]
    return command


def _words(script: str) -> list[str] | None:
    script = script.replace("\r\n", "\n").replace("\n", " ; ")
    lexer = shlex.shlex(script, posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:
        return None


def _commands(words: list[str]) -> list[list[str]]:
    """Simple commands, redirections taken out (``2>/dev/null`` and its target)."""
    commands: list[list[str]] = [[]]
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word in _SEPARATORS:
            commands.append([])
        elif word in _REDIRECTS:
            current = commands[-1]
            if current and current[-1].isdigit():
                current.pop()  # the 2 of 2>
            skip = True
        else:
            commands[-1].append(word)
    return [c for c in commands if c]


def _operands(argv: list[str]) -> list[str]:
    """The file operands of a reader or a lister (options and their values left out)."""
    tool = posixpath.basename(argv[0])
    args = argv[1:]
    out: list[str] = []
    script_given = False
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            out += args[i + 1 :]
            break
        if word.startswith("-") and len(word) > 1:
            if tool == "sed" and word in ("-e", "--expression", "-f", "--file"):
                script_given = True
            if word in _VALUED.get(tool, ()) and i + 1 < len(args):
                i += 1
            i += 1
            continue
        out.append(word)
        i += 1
    if tool == "sed" and not script_given and out:
        out = out[1:]  # sed -n '1,80p' FILE: the first operand is the script
    if tool == "find":
        out = out[:1]  # find DIR -name ...: the folder searched
    return out


def shell_calls(command: str, cwd: str = "") -> list[tuple[str, str, str]]:
    """``(tool, path, program)`` for each file read or folder listed by ``command``
    (``tool`` is ``readfile`` or ``listdir``; ``path`` absolute when ``cwd`` is known)."""
    words = _words(unwrap(command))
    if words is None:
        return []
    found: list[tuple[str, str, str]] = []
    for argv in _commands(words):
        program = posixpath.basename(argv[0])
        if program == "cd":
            target = argv[1] if len(argv) > 1 else ""
            cwd = absolute(target, cwd) if target else cwd
            continue
        if program in READERS:
            found += [(READFILE, absolute(p, cwd), program) for p in _operands(argv)]
        elif program in LISTERS:
            folders = _operands(argv) or ["."]
            found += [(LISTDIR, absolute(p, cwd) if cwd else p, program) for p in folders]
    return found
