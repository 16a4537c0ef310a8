"""``kas-tui review PKG``: the review queue (:mod:`kas_tui.features.review.queue`) as text, JSON or Markdown.

Exit 0: printed (and no row in a ``--fail-on`` group); 1: a ``--fail-on`` group has rows;
2: usage or I/O error (a bad package path, an unknown group name).

The JSON (``--format json``) is stable; keys are only ever added::

    {
      "format": "kas-tui review", "version": 1,
      "package": "orbit-handbook", "root": "/abs/path", "today": "2026-11-30",
      "soon_days": 30, "draft_days": 30,
      "documents": 37, "unreadable": 0,
      "trust": {"human-reviewed": 28, "machine-confirmed": 4, "unverified": 5},
      "status": {"draft": 2, "stable": 34, "deprecated": 1},
      "total": 10,
      "groups": [
        {"id": "stale", "title": "Stale", "count": 1,
         "rows": [{"path": "billing-support/plans-and-pricing.md",
                   "detail": "stale since 2026-10-15 (46 days)"}]},
        ...every group, in queue order, empty ones too
      ]
    }

A row may also carry ``"at": {"path", "line"}`` (where the problem is written, for a
broken link or a deprecated document's listing or link) and ``"source": {"resource",
"kind"}`` (a changed source: ``sha256``, ``missing``, ``build``, ``build-missing`` or
``since-verified``, see :mod:`kas_tui.features.review.source_changes`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from typing import Any

from kas_tui.cli.args import Parser, iso_date, open_package, whole_number
from kas_tui.features.review.queue import DRAFT_DAYS, GROUPS, SOON_DAYS, Queue, group_ids
from kas_tui.text.wording import counted, visible

FORMATS = ("text", "json", "markdown")


def review_arguments(parser: Parser) -> None:
    names = ", ".join(g.id for g in GROUPS)
    parser.description = (
        "List what in a package needs a human, grouped and counted: stale, "
        "going stale, never verified, only machine-verified, old drafts, deprecated but "
        "still listed or linked, broken links, changed sources. Exit 0: printed; 1: a "
        "--fail-on group has rows; 2: usage or I/O error."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument(
        "--today", type=iso_date, metavar="YYYY-MM-DD", help="the day to judge on (today)"
    )
    parser.add_argument(
        "--soon",
        type=whole_number(0, "day"),
        default=SOON_DAYS,
        metavar="DAYS",
        help=f"'going stale' means within DAYS days ({SOON_DAYS})",
    )
    parser.add_argument(
        "--draft-days",
        type=whole_number(0, "day"),
        default=DRAFT_DAYS,
        metavar="DAYS",
        help=f"'old draft' means a draft for more than DAYS days ({DRAFT_DAYS})",
    )
    parser.add_argument(
        "--fail-on",
        default="",
        metavar="GROUPS",
        help=f"exit 1 when one of these comma-separated groups has rows: {names}, or all",
    )


def run_review(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.review.queue import review_queue

    fail_on, unknown = group_ids(args.fail_on)
    if unknown:
        print(
            f"kas-tui review: --fail-on: unknown group {', '.join(unknown)}; "
            f"the groups are {', '.join(g.id for g in GROUPS)} (or all)",
            file=sys.stderr,
        )
        return 2
    location = open_package(args.path, "kas-tui review")
    pkg = Package.open(location.root, scan=True, cache=True)
    queue = review_queue(
        pkg, args.today or dt.date.today(), soon_days=args.soon, draft_days=args.draft_days
    )
    if args.format == "json":
        print(json.dumps(queue_json(queue, str(pkg.root)), indent=1, ensure_ascii=False))
    elif args.format == "markdown":
        print(queue_markdown(queue), end="")
    else:
        print(queue_text(queue), end="")
    failing = [g for g in fail_on if queue.count(g)]
    if failing:
        found = ", ".join(f"{g} {queue.count(g):,}" for g in failing)
        print(f"kas-tui review: rows in --fail-on groups: {found}", file=sys.stderr)
        return 1
    return 0


# --- formats -----------------------------------------------------------------------------


def queue_json(queue: Queue, root: str) -> dict[str, Any]:
    """The queue as the documented JSON object (see the module docstring)."""
    return {
        "format": "kas-tui review",
        "version": 1,
        "package": queue.package,
        "root": root,
        "today": queue.today.isoformat(),
        "soon_days": queue.soon_days,
        "draft_days": queue.draft_days,
        "documents": queue.documents,
        "unreadable": queue.unreadable,
        "trust": queue.trust,
        "status": queue.status,
        "total": queue.total,
        "groups": [
            {
                "id": g.id,
                "title": queue.title(g.id),
                "count": queue.count(g.id),
                "rows": [row.to_json() for row in queue.groups.get(g.id, [])],
            }
            for g in GROUPS
        ],
    }


def _documents_line(queue: Queue) -> str:
    unreadable = f" (and {queue.unreadable:,} unreadable)" if queue.unreadable else ""
    return f"{counted(queue.documents, 'document')}{unreadable}"


def queue_text(queue: Queue) -> str:
    """The queue for a terminal: a header of counts, then each group with rows."""
    out = [
        f"Review queue of {queue.package} on {queue.today.isoformat()}: "
        f"{counted(queue.total, 'row')} to review",
        f"{_documents_line(queue)} · trust: {queue.trust_line()}",
        f"status: {queue.status_line()}",
        "groups: " + " · ".join(f"{g.id} {queue.count(g.id):,}" for g in GROUPS),
    ]
    for g in GROUPS:
        rows = queue.groups.get(g.id, [])
        if not rows:
            continue
        paths = [visible(row.path) for row in rows]  # a name with a line break: one row
        width = min(48, max(len(path) for path in paths))
        out += ["", f"{queue.title(g.id)} ({len(rows):,})"]
        out += [
            f"  {path:<{width}}  {visible(row.detail)}"
            for path, row in zip(paths, rows, strict=True)
        ]
    if not queue.total:
        out += ["", "Nothing to review."]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    """Text safe in a Markdown list item: the characters that would format it escaped."""
    return "".join("\\" + c if c in "\\`*_[]<>|#" else c for c in text)


def _code(path: str) -> str:
    return f"`{path}`" if "`" not in path else _md(path)


def queue_markdown(queue: Queue) -> str:
    """The queue as Markdown to paste in a ticket: counts, then a task list per group."""
    out = [
        f"## Review queue: {_md(queue.package)} ({queue.today.isoformat()})",
        "",
        f"{counted(queue.total, 'row')} to review. {_documents_line(queue)}: "
        f"{queue.trust_line()}; {queue.status_line()}.",
        "",
        "| group | rows |",
        "| --- | ---: |",
    ]
    out += [f"| {_md(queue.title(g.id))} | {queue.count(g.id):,} |" for g in GROUPS]
    for g in GROUPS:
        rows = queue.groups.get(g.id, [])
        if not rows:
            continue
        out += ["", f"### {_md(queue.title(g.id))} ({len(rows):,})", ""]
        out += [f"- [ ] {_code(visible(row.path))}: {_md(visible(row.detail))}" for row in rows]
    return "\n".join(out) + "\n"
