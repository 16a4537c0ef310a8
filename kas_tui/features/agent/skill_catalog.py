"""The catalog entry: all an agent knows of a skill before it uses it.

Agent Skills harnesses put one ``<skill>`` element per installed skill into the system
prompt, inside ``<available_skills>``, the way the reference library (``skills-ref
to-prompt``) and Anthropic's harnesses render it::

    <available_skills>
    <skill>
    <name>orbit-handbook</name>
    <description>Engineering and support handbook of Orbit...</description>
    <location>/abs/path/orbit-handbook/SKILL.md</location>
    </skill>
    </available_skills>

Values are escaped for XML element text (``&``, ``<`` and ``>``); quotes need no escape
there, and escaping them would change the text (and the token count) the agent reads.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kas_tui.text.tokens import estimate_tokens

if TYPE_CHECKING:
    from kas_tui.core.package import Package

_XML_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def escape_xml(text: str) -> str:
    """``text`` escaped for an XML element's content."""
    return text.translate(_XML_TEXT)


@dataclass(frozen=True)
class CatalogEntry:
    """One skill as the catalog shows it.

    ``discoverable`` is false when the package has no usable SKILL.md (no name or
    description): a harness would not list it, but a curator may still walk it.
    """

    name: str
    description: str
    location: str
    discoverable: bool = True

    @property
    def text(self) -> str:
        """The ``<available_skills>`` block holding only this skill."""
        return render_catalog([self])

    @property
    def tokens(self) -> int:
        """Estimated tokens the block costs in every system prompt."""
        return estimate_tokens(self.text)

    @property
    def root(self) -> str:
        """The skill folder, as the location names it."""
        return os.path.dirname(self.location)


def render_catalog(entries: Iterable[CatalogEntry]) -> str:
    """The ``<available_skills>`` block for ``entries``, one element per line."""
    lines = ["<available_skills>"]
    for entry in entries:
        lines += [
            "<skill>",
            f"<name>{escape_xml(entry.name)}</name>",
            f"<description>{escape_xml(entry.description)}</description>",
            f"<location>{escape_xml(entry.location)}</location>",
            "</skill>",
        ]
    lines.append("</available_skills>")
    return "\n".join(lines)


def skill_body_tokens(body: str) -> int:
    """Estimated tokens of a SKILL.md body as an agent loads it (surrounding blank lines aside):
    the discovery view and the SKILL.md editor both say this number."""
    return estimate_tokens(body.strip())


def catalog_entry(package: Package, location: str | os.PathLike[str] | None = None) -> CatalogEntry:
    """The catalog entry of ``package``.

    ``location`` is where the harness found SKILL.md (default: the package's own absolute
    path); pass e.g. ``~/.claude/skills/<name>/SKILL.md`` to show an installed copy.
    Without a SKILL.md name the folder name stands in.
    """
    skill = package.skill
    name = skill.name.strip() if skill is not None else ""
    description = skill.description.strip() if skill is not None else ""
    where = os.fspath(location) if location is not None else str(package.root / "SKILL.md")
    return CatalogEntry(name or package.name, description, where, bool(name and description))
