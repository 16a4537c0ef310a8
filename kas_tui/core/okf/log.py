"""``log.md``: date groups ``## YYYY-MM-DD`` (newest first) of bullets ``* **Kind**: text``."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.text import control_chars, newline_of, split_lines
from kas_tui.text.wording import terminal_text

_GROUP = re.compile(r"##[ \t]+(?P<head>.*?)[ \t]*$")
_DATE = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})(?:[ \t]*:[ \t]*(?P<summary>.*))?$")
_BULLET = re.compile(r"(?P<indent>[ \t]*)(?P<bullet>[*+-])[ \t]+(?P<text>.*)$")
_KIND = re.compile(r"\*\*(?P<kind>[^*]+?)\*\*:?[ \t]*")


@dataclass(frozen=True)
class Bullet:
    """One log entry: ``kind`` is the leading bold word (``Update``), when there is one."""

    line: int
    text: str
    kind: str | None
    bullet: str


@dataclass
class Group:
    """A ``## date`` heading and its bullets."""

    date: str
    line: int
    summary: str | None = None
    bullets: list[Bullet] = field(default_factory=list)


@dataclass
class Log:
    """A parsed ``log.md``; ``problems`` hold what breaks OKF §9, each with its line."""

    title: str | None = None
    groups: list[Group] = field(default_factory=list)
    problems: list[FormatError] = field(default_factory=list)


def parse_log(text: str) -> Log:
    """Parse ``log.md`` text; format problems are recorded on the result, never raised."""
    log = Log()
    lines = [line.rstrip("\r\n") for line in split_lines(text)]
    start = 0
    try:
        parsed = fm.parse(text)
    except FormatError as exc:
        log.problems.append(exc)
        parsed = None
    if parsed is not None:  # tolerated on read, never written
        start = text.count("\n", 0, parsed.block.end)
    group: Group | None = None
    in_fence = False
    for n in range(start, len(lines)):
        line, number = lines[n], n + 1
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if line.startswith("# ") and log.title is None and not log.groups:
            log.title = line[2:].strip()
            continue
        heading = _GROUP.match(line)
        if heading:
            date = _DATE.match(heading.group("head"))
            if date and not _real_date(date.group("date")):
                date = None
            if not date:
                log.problems.append(
                    FormatError(
                        f"log heading {line.strip()!r} is not an ISO date",
                        line=number,
                        hint="write date groups as '## YYYY-MM-DD'",
                        kind="log-date",
                    )
                )
                group = None
                continue
            group = Group(date.group("date"), number, date.group("summary"))
            log.groups.append(group)
            continue
        bullet = _BULLET.match(line)
        if bullet and group is not None:
            body = bullet.group("text")
            kind = _KIND.match(body)
            group.bullets.append(
                Bullet(
                    number,
                    body,
                    kind.group("kind").strip() if kind else None,
                    bullet.group("bullet"),
                )
            )
    for prev, cur in zip(log.groups, log.groups[1:], strict=False):
        if cur.date > prev.date:
            log.problems.append(
                FormatError(
                    f"log date {cur.date} comes after the older {prev.date}; newest must come first",
                    line=cur.line,
                    hint="move this date group above the older ones",
                    kind="log-order",
                )
            )
    for g in log.groups:
        if not g.bullets:
            log.problems.append(
                FormatError(
                    f"log date group {g.date} has no entries",
                    line=g.line,
                    hint="add a '* **Update**: ...' bullet or remove the heading",
                    kind="log-empty",
                )
            )
    return log


def _real_date(text: str) -> bool:
    """Whether ``YYYY-MM-DD`` text names a real day (``2026-02-30`` does not)."""
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def format_bullet(kind: str, message: str, bullet: str = "*") -> str:
    """``* **Kind**: message``, one line: a kind with a control character is refused; in
    the message (it names files, whose names may hold anything) line breaks and control
    characters are written out (``\\n``, ``\\x1b``)."""
    if "\n" in kind or "\r" in kind or control_chars(kind):
        raise EditError("the log kind must be one line of plain text")
    message = terminal_text(message.strip().replace("\n", "\\n"))
    return f"{bullet} **{kind.strip()}**: {message}"


def append_log_entry(text: str | None, date: str, kind: str, message: str) -> str:
    """Add ``* **kind**: message`` under ``## date`` (the group is created when missing).

    ``text=None`` creates a new log. Entries of the day go after the day's existing
    bullets; a new day goes above the newest older group, so the log stays newest first.
    """
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise EditError(f"log date {date!r} is not YYYY-MM-DD")
    if not text:
        return f"# Update log\n\n## {date}\n{format_bullet(kind, message)}\n"
    nl = newline_of(text)
    log = parse_log(text)
    lines = split_lines(text)
    if not lines[-1].endswith("\n"):
        lines[-1] += nl
    style = next((b.bullet for g in log.groups for b in g.bullets), "*")
    entry = format_bullet(kind, message, style) + nl
    today = next((g for g in log.groups if g.date == date), None)
    older = next((g for g in log.groups if g.date < date), None)  # keep newest first
    if today is not None:
        at = today.bullets[-1].line if today.bullets else today.line
        lines.insert(at, entry)
    elif older is not None:
        at = older.line - 1
        lines[at:at] = [f"## {date}{nl}", entry, nl]
    else:
        if lines[-1].strip():
            lines.append(nl)
        lines += [f"## {date}{nl}", entry]
    return "".join(lines)
