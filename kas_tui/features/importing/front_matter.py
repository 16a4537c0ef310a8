"""A source page's front matter, in the forms sites write it: YAML between ``---``
lines (read as every frontmatter is, :mod:`kas_tui.core.okf.frontmatter`), TOML
between ``+++`` lines (Hugo's), or a JSON object opening the page (Hugo's too).
What cannot be read is ``{}``: the page is then read as any page is, and the build's
conversion says what is wrong with its YAML."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import tomllib

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import FormatError

#: Zola's and Hugo's ``+++`` lines, after blank lines if any (Zola allows them: its themes'
#: pages open with one).
_TOML = re.compile(r"\A\s*\+\+\+[ \t]*\r?\n(.*?)\r?\n\+\+\+[ \t]*(?:\r?\n|\Z)", re.S)


def front_matter(text: str) -> dict[str, Any]:
    """A page's front matter as a mapping, whichever form; ``{}`` when it has none or
    it cannot be read."""
    if text.startswith("{"):
        try:
            data, _end = json.JSONDecoder().raw_decode(text)
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
    toml = toml_front_matter(text)
    if toml is not None:
        return toml[0]
    try:
        parsed = fm.parse(text)
    except FormatError:
        return {}
    return parsed.data if parsed is not None and isinstance(parsed.data, dict) else {}


def toml_front_matter(text: str) -> tuple[dict[str, Any], int] | None:
    """A page's TOML front matter (``+++`` ... ``+++``), its dates as the text TOML
    wrote them, and where the body starts; ``None`` when it has none or it is not
    TOML."""
    found = _TOML.match(text)
    if found is None:
        return None
    try:
        data = tomllib.loads(found.group(1))
    except ValueError:  # tomllib's errors are ValueErrors
        return None
    return _as_text(data), found.end()


def _as_text(value: Any) -> Any:
    """TOML's dates and times as ISO 8601 text, as frontmatter keeps them."""
    if isinstance(value, dict):
        return {str(k): _as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return value


#: Front matter keys giving a page its place among its siblings, as the sites reading
#: them order pages by (react-router's own ``order``, Docusaurus' ``sidebar_position``,
#: Just the Docs' ``nav_order``, Hugo's ``weight``), lowest first.
PLACE_KEYS = ("order", "sidebar_position", "nav_order", "weight")


def front_matter_place(data: dict[str, Any]) -> float | None:
    """The place a page's front matter ``data`` gives it (:data:`PLACE_KEYS`): a number,
    or a string of one; ``None`` when it gives none."""
    for key in PLACE_KEYS:
        value = data.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and abs(value) < 1e12:
            return float(value)
        if isinstance(value, str) and re.fullmatch(r"-?\d{1,12}(?:\.\d+)?", value.strip()):
            return float(value.strip())
    return None
