"""A change to the sample package (Acme) that touches everything ``kas-tui diff``
reports, two folders holding it before and after, and a git repository made in the test
holding the package's old side (for ``diff --since``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.helpers.acme import make_package

#: what :func:`change` adds to billing/index.md
NEW_ENTRY = "- [SLA credits](/billing/sla-credits.md) - How an outage turns into account credit.\n"
SLA_CREDITS = """\
---
type: Policy
title: SLA credits
description: How an outage turns into account credit.
---

# SLA credits

See the [refund policy](refund-policy.md) and the [credit calculator](calculator.md).
"""
NEW_SKILL_DESCRIPTION = (
    "Operations handbook of Acme - incidents, postmortems, billing refunds and SLA "
    "credits. Use when answering how Acme staff handle an incident, a refund request, "
    "an SLA credit or an invoice dispute."
)


def edit(root: Path, old: str, new: str, rel: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def change(root: Path) -> None:
    """The change: one document added (and listed), one removed, one moved by path with
    the same body, one with a frontmatter field changed; an index entry reworded and one
    moved to another section; SKILL.md's description longer; a link that the change
    breaks (to calculator.md, which does not exist)."""
    (root / "billing" / "sla-credits.md").write_text(SLA_CREDITS, encoding="utf-8")
    edit(root, "is wrong.\n", "is wrong.\n" + NEW_ENTRY, "billing/index.md")
    (root / "billing" / "chargebacks.md").unlink()
    (root / "billing" / "invoice-disputes.md").rename(root / "billing" / "invoices.md")
    edit(root, "/billing/invoice-disputes.md", "/billing/invoices.md", "billing/index.md")
    edit(
        root,
        "status: stable\nstale_after: 2026-12-31",
        "status: draft\nstale_after: 2026-12-31",
        "incidents/severity-levels.md",
    )
    edit(
        root,
        "with the customer impact that triggers each level.",
        "and the impact that sets each level.",
        "incidents/index.md",
    )
    refund = "* [Refund policy](../billing/refund-policy.md) - When an outage entitles customers to a refund or an SLA credit.\n"
    edit(root, refund, "", "incidents/index.md")
    edit(
        root, "# Running an incident\n", refund + "\n# Running an incident\n", "incidents/index.md"
    )
    edit(
        root,
        "Operations handbook of Acme - incidents, postmortems and billing refunds. Use when answering how Acme staff handle an incident, a refund request or an invoice dispute.",
        NEW_SKILL_DESCRIPTION,
        "SKILL.md",
    )  # fmt: skip


def pair(tmp_path: Path) -> tuple[Path, Path]:
    """The sample package in ``before/acme-kb`` and, changed, in ``after/acme-kb``."""
    before = make_package(tmp_path / "before")
    after = tmp_path / "after" / "acme-kb"
    shutil.copytree(before, after)
    change(after)
    return before, after


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` with a fixed identity and no user configuration."""
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    env |= {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout


def repository(tmp_path: Path, folder: str = "knowledge") -> Path:
    """A git repository holding the sample package in ``folder/acme-kb`` (committed), the
    package's work tree then changed by :func:`change`; returns the package's root."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    root = make_package(repo / folder)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "the package")
    change(root)
    return root
