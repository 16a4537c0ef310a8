"""A MyST page's directives as its site shows them (pure: text in, text out).

MyST writes a directive as a code fence whose language is its name in braces
(```` ```{note} ````), or as a colon fence (``:::{note}``). Left as written, a backtick
fence is a code block to every Markdown reader: jupyterhub's notes were shown as code,
the links in them (``[roles](define-role-target)``) neither resolved nor checked. So:

- **A directive whose content is Markdown** (an admonition, ``seealso``, a dropdown, a
  tab, a card, a glossary, a list table) is a colon fence, the form MyST reads the same
  and a Markdown reader shows as text: ``:::{note}`` over its content, closed by as many
  colons; the content's own directives read the same way.
- **Code** (``code-block``, ``code``, ``code-cell``, ``sourcecode``, ``doctest``,
  ``testcode``, ``parsed-literal``, ``math``) is a code block in its language.
- **Version notes** read as Sphinx words them ("New in version 2.0: ...").
- **A figure or an image** is the image, its caption below it; a ``rubric`` is a line in
  bold.
- Each directive's options (``:class: dropdown``, a ``---`` block of YAML) are left out:
  they configure how it is drawn and were read as words of a description.

- **reStructuredText**: an ``eval-rst`` block, and a directive only Sphinx's
  reStructuredText side draws (autodoc's, ``autosummary``, ``currentmodule``), are what
  the caller's ``rst`` reads them as (:mod:`.myst_rst`: autodoc from the source's code);
  as written without one.

Other directives (``toctree``, ``include``, an extension's own) stay as written, and
nothing inside a code block is read as a directive.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kas_tui.features.importing.autodoc import AUTODOC
from kas_tui.text.prose import MYST_ASIDES, MYST_TEXT

#: Reads reStructuredText lines (a MyST page's, below its line ``at``) as Markdown
#: lines; ``None`` to leave the directive as written.
RstReader = Callable[[list[str], int], "list[str] | None"]
#: Directives only reStructuredText draws, read by the caller's :data:`RstReader`.
RST_DIRECTIVES = frozenset({*AUTODOC, "autosummary", "currentmodule", "module", "eval-rst"})

#: Directives whose content is Markdown, shown as a colon fence.
TEXT_DIRECTIVES = MYST_ASIDES | MYST_TEXT
#: Directives whose content is code, and the language of those that name none.
CODE_DIRECTIVES = {
    "code-block": "",
    "code": "",
    "code-cell": "",
    "sourcecode": "",
    "doctest": "python",
    "testcode": "python",
    "testoutput": "",
    "parsed-literal": "",
    "math": "math",
}
#: Sphinx's version notes, as its HTML words them.
VERSIONS = {
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}
_OPEN = re.compile(r"^([ \t]*)(`{3,}|~{3,}|:{3,})[ \t]*\{([\w:.-]+)\}[ \t]*(.*?)[ \t]*$")
_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})")
_OPTION = re.compile(r"^[ \t]*:[\w.-]+:(?:[ \t].*)?$")


def shown_directives(text: str, rst: RstReader | None = None) -> str:
    """``text`` (a MyST page's Markdown) with its directives as its site shows them
    (see the module), its reStructuredText read by ``rst``; the text unchanged when it
    writes none."""
    if "{" not in text or not ("```" in text or ":::" in text or "~~~" in text):
        return text
    return "\n".join(_shown(text.split("\n"), 0, rst, 0))


#: Directives nested deeper than this are left as written (a page of hundreds nested in
#: each other would otherwise exhaust Python's stack).
_MAX_DEPTH = 20


def _shown(lines: list[str], depth: int, rst: RstReader | None = None, at: int = 0) -> list[str]:
    """``lines`` with their directives shown; ``at``: the page's line before them."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        opened = _OPEN.match(line)
        if opened is None:
            fence = _FENCE.match(line)
            if fence is not None:  # a code block: nothing in it is a directive
                end = _closing(lines, i + 1, fence.group(2))
                out += lines[i : end + 1]
                i = end + 1
                continue
            out.append(line)
            i += 1
            continue
        indent, marker, name, argument = opened.groups()
        end = _closing(lines, i + 1, marker)
        body = [_dedented(b, indent) for b in lines[i + 1 : end]]
        name = name.rsplit(":", 1)[-1].lower()
        shown = None
        if depth < _MAX_DEPTH and rst is not None and name in RST_DIRECTIVES:
            # the page's line before the rST's first: an eval-rst's content starts below
            # its fence, another directive's rST (".. autoclass:: X") on it
            shown = rst(_as_rst(name, argument, body), at + i + (name == "eval-rst"))
        elif depth < _MAX_DEPTH:
            shown = _directive(name, argument, body, depth + 1, rst, at + i + 1)
        if shown is None:  # a directive read elsewhere, or unknown: as written
            out += lines[i : end + 1]
        else:
            out += [f"{indent}{s}" if s else "" for s in shown]
        i = end + 1
    return out


def _closing(lines: list[str], start: int, marker: str) -> int:
    """The line closing a fence opened with ``marker`` (as many of its characters or
    more, alone on the line); ``len(lines)`` when none does (it runs to the end)."""
    char, least = marker[0], len(marker)
    n = start
    while n < len(lines):
        stripped = lines[n].strip()
        if len(stripped) >= least and stripped == char * len(stripped):
            return n
        inner = _FENCE.match(lines[n]) if char == ":" else None
        if inner is not None:  # a code block in a colon fence: its lines close nothing
            n = _closing(lines, n + 1, inner.group(2)) + 1
            continue
        n += 1
    return len(lines)


def _dedented(line: str, indent: str) -> str:
    return line[len(indent) :] if indent and line.startswith(indent) else line


def _without_options(body: list[str]) -> list[str]:
    """A directive's content without its options: ``:key: value`` lines at its top, or a
    block of YAML between ``---`` lines there."""
    at = 0
    if body and body[0].strip() == "---":
        close = next((n for n in range(1, len(body)) if body[n].strip() == "---"), None)
        if close is not None:
            at = close + 1
    while at < len(body) and _OPTION.match(body[at]):
        at += 1
    return body[at:]


def _as_rst(name: str, argument: str, body: list[str]) -> list[str]:
    """A MyST directive as the reStructuredText it stands for: an ``eval-rst`` block's
    content as it is; another's ``.. name:: argument``, its options (``:members:``
    lines, or a YAML block's ``key: value`` lines) and its content indented below."""
    if name == "eval-rst":
        return body
    options: list[str] = []
    content = _without_options(body)
    if body and body[0].strip() == "---":  # MyST's YAML options, as rST's
        options = [
            f":{key.strip()}: {value.strip()}".rstrip()
            for line in body[1 : len(body) - len(content) - 1]
            for key, sep, value in [line.partition(":")]
            if sep and key.strip()
        ]
    else:
        options = [line.strip() for line in body[: len(body) - len(content)]]
    while content and not content[0].strip():
        content = content[1:]
    head = f".. {name}:: {argument}".rstrip()
    return [head, *(f"   {o}" for o in options), "", *(f"   {c}" if c else "" for c in content)]


def _directive(
    name: str, argument: str, body: list[str], depth: int, rst: RstReader | None = None, at: int = 0
) -> list[str] | None:
    """The lines showing the directive ``name`` (on the page's line ``at``); ``None`` to
    leave it as written."""
    if name in TEXT_DIRECTIVES:
        content = _shown(_without_options(body), depth, rst, at)
        runs = [len(c) - len(c.lstrip(":")) for c in content if c.startswith(":::")]
        head = ":" * max([3, *(r + 1 for r in runs)])
        return [f"{head}{{{name}}}" + (f" {argument}" if argument else ""), *content, head]
    if name in CODE_DIRECTIVES:
        language = argument.split()[0] if argument.split() else CODE_DIRECTIVES[name]
        content = _without_options(body)
        ticks = "`" * max(3, 1 + max((len(c) - len(c.lstrip("`")) for c in content), default=0))
        return [f"{ticks}{language}", *content, ticks]
    if name in VERSIONS:
        version, _sp, said = argument.partition(" ")
        content = _shown(_without_options(body), depth)
        while content and not content[0].strip():
            content.pop(0)
        first = " ".join(p for p in (said, content[0].strip() if content else "") if p)
        rest = content[1:] if content else []
        return [f"*{VERSIONS[name]} {version}:* {first}".rstrip(), *rest]
    if name in ("figure", "image") and argument:
        content = _shown(_without_options(body), depth)
        while content and not content[0].strip():
            content.pop(0)
        alt = next((o.split(":", 2)[2].strip() for o in body if o.strip().startswith(":alt:")), "")
        return [f"![{alt}]({argument})", *([""] if content else []), *content]
    if name == "rubric" and argument:
        return [f"**{argument}**"]
    return None
