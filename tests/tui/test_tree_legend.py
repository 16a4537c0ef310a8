"""The tree-mark legend (docs/tui.md) names every mark the tree can show.

The tree is built on a package with every case a mark exists for (each trust tier, each
lifecycle flag, drift, unlisted documents and bundles, missing, outside and external
entries, findings of each severity, files an agent read or peeked at); every mark found
in its labels must be explained in the legend.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check.findings import Finding
from kas_tui.tui.app import KasApp
from kas_tui.tui.widgets.nav_tree import NavTree
from tests.helpers.waiting import pilot_wait_until

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb" / "orbit-handbook"
TODAY = dt.date(2026, 11, 30)
#: A mark: a symbol (not a letter, digit or punctuation of prose) or a [flag].
_MARK = re.compile(r"\[[a-z]+\]|[^\w\s.,:;()'\"/&+%<>=#*`’“”—–-]")


def _legend(page: str) -> str:
    readme = (ROOT / page).read_text("utf-8")
    start = readme.index("Marks in the tree:")
    return readme[start : readme.index("\n\n", start)]


def _package(tmp_path: Path) -> Package:
    root = tmp_path / "orbit-handbook"
    shutil.copytree(DEMO, root)
    index = root / "oncall" / "index.md"
    policy = (root / "oncall" / "escalation-policy.md").read_text("utf-8")
    described = re.search(r"^description: (.+)$", policy, re.M)
    assert described is not None
    text = index.read_text("utf-8")
    assert described.group(1) in text  # the entry agrees with the document, until now:
    text = text.replace(
        described.group(1), "Holiday rota for the support desk and its lunch breaks."
    )
    index.write_text(
        text
        + "\n# More\n\n"
        + "* [Gone](gone.md) - A document that was deleted.\n"
        + "* [Elsewhere](../../outside.md) - A file outside the package.\n"
        + "* [Vendor docs](https://example.com/docs) - The vendor's documentation.\n",
        "utf-8",
    )
    (root / "oncall" / "stray.md").write_text(
        "---\ntype: Note\ntitle: Stray\ndescription: Listed nowhere.\n---\n# Stray\n", "utf-8"
    )
    (root / "oncall" / "attic").mkdir()
    (root / "oncall" / "attic" / "index.md").write_text("# Attic\n", "utf-8")
    return Package.open(root)


async def test_every_mark_the_tree_shows_is_in_the_legends(tmp_path: Path) -> None:
    package = _package(tmp_path)
    app = KasApp(package, today=TODAY, watch=False)
    async with app.run_test(size=(200, 50)) as pilot:
        tree = app.query_one(NavTree)
        tree.set_marks(
            [
                Finding("KAS001", severity, f"oncall/{name}", 1, "a finding")
                for severity, name in (
                    ("error", "escalation-policy.md"),
                    ("warning", "handoff-checklist.md"),
                    ("info", "oncall-faq.md"),
                )
            ]
        )
        tree.set_visited(read=["oncall/oncall-overview.md"], peeked=["oncall/oncall-faq.md"])
        for node in list(tree.root.children):
            node.expand_all()
        await pilot_wait_until(
            pilot, lambda: "Stray" in _labels(tree) and "attic/" in _labels(tree)
        )
        labels = _labels(tree)
    shown = set(_MARK.findall(labels))
    # the cases were all built: each kind of mark is there to be checked
    for expected in ("●", "○", "?", "✗", "↗", "≠", "!", "◆", "◇", "[draft]", "[stale]"):
        assert expected in shown or expected in labels, expected
    for page in ("docs/tui.md",):  # the README shows the common marks and links here
        legend = _legend(page)
        missing = sorted(mark for mark in shown if mark not in legend)
        assert not missing, f"marks the tree shows but {page}'s legend does not explain: {missing}"


def _labels(tree: NavTree) -> str:
    lines = []
    stack = list(tree.root.children)  # the root's label names the package, it marks nothing
    while stack:
        node = stack.pop()
        lines.append(node.label.plain)
        stack.extend(node.children)
    return "\n".join(lines)
