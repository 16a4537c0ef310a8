"""A page's ``permalink:`` is where its site serves it, config or none: TypeScript's
handbook (``packages/documentation``, 2026-12-07) links its pages to each other by
theirs (``/docs/handbook/2/everyday-types.html``), and its site's Gatsby config is no
config a build reads; 174 such links were broken."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources


def test_links_to_a_pages_permalink_lead_to_it(tmp_path: Path) -> None:
    files = {
        "copy/en/handbook-v2/Basics.md": (
            "---\ntitle: The Basics\npermalink: /docs/handbook/2/basic-types.html\n---\n\n"
            "Read [Everyday Types](/docs/handbook/2/everyday-types.html#arrays) next.\n"
        ),
        "copy/en/handbook-v2/Everyday Types.md": (
            "---\ntitle: Everyday Types\npermalink: /docs/handbook/2/everyday-types.html\n---\n\n"
            "## Arrays\n\nSee [the basics](/docs/handbook/2/basic-types.html).\n"
        ),
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=dt.datetime(2026, 12, 7, tzinfo=dt.UTC))
    pkg = Package(out)
    pkg.load()
    where = {d.title: p for p, d in pkg.documents.items()}
    basics = (out / where["The Basics"]).read_text("utf-8")
    assert "[Everyday Types](/everyday-types.md#arrays)" in basics  # package-rooted
    assert [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"] == []
