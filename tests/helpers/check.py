"""Small packages for the ``kas-tui check`` tests, written file by file into ``tmp_path``.

``write_package(tmp_path, {"guide.md": None, "extra.md": doc(...)})`` starts from
:data:`BASE` (a four-file package with no finding in either profile), applies the
changes (``None`` deletes a file, ``bytes`` are written as they are) and returns the
root. :func:`doc` builds a concept document whose frontmatter lines are predictable:
line 1 ``---``, 2 ``type``, 3 ``title``, 4 ``description``, then ``extra`` from line 5;
the body starts on line 7 (line 6 is blank) when all three fields are present.
"""

# ruff: noqa: E501  (descriptions are one long line each, as in real packages)

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import Report, check
from kas_tui.features.check.findings import Finding

TODAY = dt.date(2026, 12, 1)

SKILL_DESCRIPTION = (
    "Handbook of the example team - onboarding guides and team policies. Use when a question "
    "is about how the example team onboards people or runs its services."
)
SKILL_BODY = """\
# Example handbook

Start at `index.md`, pick a document by its description, and read its frontmatter
before its body. Say so when the package does not cover the question.
"""


def skill(
    *,
    name: str | None = "{name}",
    description: str | None = SKILL_DESCRIPTION,
    extra: str = "",
    body: str = SKILL_BODY,
) -> str:
    """A SKILL.md: line 1 ``---``, 2 ``name``, 3 ``description``, then ``extra`` from line 4.

    ``{name}`` is replaced by the package folder's name when the package is written.
    """
    lines = ["---"]
    if name is not None:
        lines.append(f"name: {name}")
    if description is not None:
        lines.append(f"description: {description}")
    if extra:
        lines.append(extra.rstrip("\n"))
    lines.append("---")
    return "\n".join(lines) + "\n\n" + body


SKILL = skill()

INDEX = """\
# Example handbook

* [Getting started](guide.md) - How a new team member sets up access and finds the runbooks on day one.
"""

LOG = """\
# Update log

## 2026-11-02
* **Initialization**: Created the package.
"""

GUIDE_DESCRIPTION = "How a new team member sets up access and finds the runbooks on day one."


def doc(
    *,
    type: str | None = "Guide",  # noqa: A002 - the frontmatter key
    title: str | None = "Getting started",
    description: str | None = GUIDE_DESCRIPTION,
    extra: str = "",
    body: str = "Read this first.\n",
) -> str:
    """A concept document; ``None`` leaves a field out, ``extra`` adds raw YAML lines."""
    lines = ["---"]
    for key, value in (("type", type), ("title", title), ("description", description)):
        if value is not None:
            lines.append(f"{key}: {value}")
    if extra:
        lines.append(extra.rstrip("\n"))
    lines.append("---")
    return "\n".join(lines) + "\n\n" + body


GUIDE = doc()

#: A package with no finding at all, in both profiles (see ``test_base_package_is_clean``).
BASE: dict[str, str] = {"SKILL.md": SKILL, "index.md": INDEX, "log.md": LOG, "guide.md": GUIDE}


def write_files(root: Path, files: dict[str, str | bytes | None]) -> None:
    for rel, content in files.items():
        path = root / rel
        if content is None:
            if path.is_file() or path.is_symlink():
                path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


def write_package(
    tmp_path: Path,
    files: dict[str, str | bytes | None] | None = None,
    *,
    name: str = "kb",
    base: bool = True,
) -> Path:
    """Write :data:`BASE` (unless ``base=False``) plus ``files`` to ``tmp_path / name``."""
    root = Path(tmp_path) / name
    root.mkdir(parents=True, exist_ok=True)
    merged: dict[str, str | bytes | None] = {}
    if base:
        merged.update({rel: text.replace("{name}", name) for rel, text in BASE.items()})
    for rel, content in (files or {}).items():
        merged[rel] = content.replace("{name}", name) if isinstance(content, str) else content
    write_files(root, merged)
    return root


def run(root: Path, *, agent_ready: bool = False, today: dt.date = TODAY, **options) -> Report:
    """``kas_tui.features.check.check`` on a fresh load of ``root`` (bodies scanned).

    The one-document rules run twice: where the documents are read (as a check loads
    them) and in the engine (as the TUI's unscanned load leaves them); both must agree.
    """
    report = check(Package.open(root, scan=True), agent_ready=agent_ready, today=today, **options)
    unscanned = check(Package.open(root), agent_ready=agent_ready, today=today, **options)
    assert unscanned.findings == report.findings
    return report


def with_code(report: Report, code: str) -> list[Finding]:
    return [f for f in report.findings if f.code == code]


def codes(report: Report) -> set[str]:
    return {f.code for f in report.findings}


def describe(report: Report) -> str:
    """The findings, one per line, for assertion messages."""
    return "\n".join(
        f"{f.path}:{f.line}: {f.code} {f.severity} {f.message}" for f in report.findings
    )


def snapshot_bytes(root: Path) -> dict[str, bytes]:
    """Every file's bytes under ``root`` (``.git`` included), keyed by relative path."""
    out: dict[str, bytes] = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out
