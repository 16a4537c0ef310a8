"""``SKILL.md``: Agent Skills frontmatter (name, description, ...) and a usage body."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.text import line_of

#: Keys the Agent Skills specification allows in SKILL.md frontmatter.
ALLOWED_KEYS = ("allowed-tools", "compatibility", "description", "license", "metadata", "name")


@dataclass
class Skill:
    """A parsed SKILL.md; ``problems`` use the reference validator's wording."""

    data: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1
    problems: list[FormatError] = field(default_factory=list)

    @property
    def name(self) -> str:
        value = self.data.get("name")
        return value if isinstance(value, str) else ""

    @property
    def description(self) -> str:
        value = self.data.get("description")
        return value if isinstance(value, str) else ""


def parse_skill(text: str) -> Skill:
    """Parse SKILL.md text; problems are recorded, never raised."""
    skill = Skill(body=text)
    if not text.startswith("---"):
        skill.problems.append(
            FormatError("SKILL.md must start with YAML frontmatter (---)", line=1)
        )
        return skill
    try:
        parsed = fm.parse(text)
    except FormatError as exc:
        if "never closed" in exc.message:
            exc = FormatError("SKILL.md frontmatter not properly closed with ---", line=1)
        elif "must be a YAML mapping" in exc.message:
            exc = FormatError("SKILL.md frontmatter must be a YAML mapping", line=exc.line)
        skill.problems.append(exc)
        return skill
    if parsed is None:
        skill.problems.append(
            FormatError("SKILL.md must start with YAML frontmatter (---)", line=1)
        )
        return skill
    skill.data = parsed.data
    skill.body = text[parsed.block.end :]
    skill.body_line = line_of(text, parsed.block.end) if parsed.block.end < len(text) else 1
    return skill
