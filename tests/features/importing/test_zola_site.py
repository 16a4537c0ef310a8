"""A Zola site (getzola/zola's docs): TOML front matter, after a blank line too; links
from the content folder (``@/docs/x.md``); sections whose ``_index.md`` only sends the
reader on (``redirect_to``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def test_a_zola_sites_front_matter_links_and_sections(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "config.toml": 'base_url = "https://example.org"\ntitle = "Demo"\n',
            "content/documentation/_index.md": '+++\ntemplate = "documentation.html"\n'
            'redirect_to = "documentation/getting-started/overview"\n+++\n',
            "content/documentation/getting-started/overview.md": '+++\ntitle = "Overview"\n'
            "weight = 5\n+++\n\nZola is a static site generator. See "
            "[configuration](@/documentation/getting-started/configuration.md).\n",
            "content/documentation/getting-started/configuration.md": '+++\ntitle = "Configuration"'
            "\n+++\n\nThe default configuration is enough to run Zola locally.\n",
            "content/themes/abridge/index.md": '\n+++\ntitle = "abridge"\ndescription = "A fast and '
            'lightweight Zola theme."\ntemplate = "theme.html"\n+++        \n\n# Abridge Zola Theme\n\n'
            "Abridge is a fast theme.\n",
        },
    )
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    pkg = Package(out)
    pkg.load()
    by_title = {pkg.documents[p].title: p for p in pkg.documents}
    assert set(by_title) == {"Overview", "Configuration", "abridge"}
    assert pkg.documents[by_title["abridge"]].description == "A fast and lightweight Zola theme."
    assert "+++" not in (out / by_title["abridge"]).read_text("utf-8")
    overview = (out / by_title["Overview"]).read_text("utf-8")
    assert "@/" not in overview and "configuration.md)" in overview
    assert any(
        "redirect_to: content/documentation/_index.md -> /documentation/" in n for n in result.notes
    )
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
