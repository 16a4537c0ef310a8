"""A docfx site's pages link to each other under the docset's path on its site
(``/dynamics365/business-central/welcome``); the build learns that path from the links
and reads them as links to the source's pages."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.features.importing.build import build
from kas_tui.features.importing.site_base import learned_base, under_base
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
PAGES = {"welcome", "sales", "purchasing", "faq-copy-paste", "srb/welcome"}


def _names(path: str) -> bool:
    return path in PAGES


def test_the_base_is_where_most_links_name_pages() -> None:
    bodies = [
        "[a](/erp/docs/welcome) [b](/erp/docs/sales#x) [c](/erp/docs/purchasing)",
        "[d](/training/erp) [e](/erp/docs/faq-copy-paste) [f](/other/srb/welcome)",
        "[g](/sales) [h](relative.md)",
    ]
    assert learned_base(bodies, _names, tops={"sales"}) == "erp/docs"
    assert under_base("erp/docs/sales", "erp/docs") == "sales"
    assert under_base("erp/docsx/sales", "erp/docs") is None
    assert under_base("training/erp", "erp/docs") is None


def test_too_few_or_disagreeing_links_make_no_base() -> None:
    two = ["[a](/erp/docs/welcome) [b](/erp/docs/sales)"]
    assert learned_base(two, _names, set()) == ""
    split = [
        "[a](/x/welcome) [b](/x/sales) [c](/x/purchasing) [d](/y/z/welcome) "
        "[e](/y/z/sales) [f](/y/z/purchasing) [g](/q/r/faq-copy-paste) [h](/q/r/srb/welcome)"
    ]
    assert learned_base(split, _names, set()) == ""  # three prefixes, none has half


def test_a_build_reads_docset_links_as_links_to_its_pages(tmp_path: Path) -> None:
    def page(title: str, links: str) -> str:
        return f"# {title}\n\nWhat {title.lower()} covers for a small firm. {links}\n"

    base = "/dynamics365/widgetry"
    source = write_sources(
        tmp_path / "src",
        {
            "welcome.md": page(
                "Welcome", f"See [sales]({base}/sales) and [training](/training/x)."
            ),
            "sales.md": page("Sales", f"Also [purchasing]({base}/purchasing#vendors)."),
            "purchasing.md": page("Purchasing", f"Back to [welcome]({base}/welcome)."),
            "returns.md": page("Returns", f"Start at [sales]({base}/sales/)."),
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    assert "[sales](/sales.md)" in (out / "welcome.md").read_text("utf-8")
    assert "[training](/training/x)" in (out / "welcome.md").read_text("utf-8")  # another site
    assert "[purchasing](/purchasing.md#vendors)" in (out / "sales.md").read_text("utf-8")
    assert "[sales](/sales.md)" in (out / "returns.md").read_text("utf-8")
