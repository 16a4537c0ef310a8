"""A Hexo site, as hexojs/site is: ``_config.yml`` (Jekyll's name, Hexo's keys), its pages
in ``source/``, the templates ``hexo new`` fills in in ``scaffolds/`` (one of them broke
the build: its ``title: {{ title }}`` is no YAML), its data in ``source/_data/``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

CONFIG = """title: Hexo
description: "A fast, simple & powerful blog framework."
new_post_name: :year-:month-:day-:title.md
post_asset_folder: true
theme: navy
"""
SETUP = "---\ntitle: Setup\n---\n\nInstall Hexo with npm, then run hexo init in an empty folder.\n"
THAI = "---\ntitle: Setup\n---\n\nติดตั้ง Hexo ด้วย npm แล้วเรียก hexo init ในโฟลเดอร์ว่าง\n"


def test_a_hexo_site_builds_its_source_folder(tmp_path: Path) -> None:
    files = {
        "_config.yml": CONFIG,
        "scaffolds/post.md": "---\ntitle: {{ title }}\ndate: {{ date }}\n---\n",
        "scaffolds/page.md": "title: {{ title }}\n---\n",
        "themes/navy/layout/page.swig": "<article>{{ page.content }}</article>\n",
        "source/_data/plugins.yml": "- name: hexo-deployer-git\n  link: https://x\n",
        "source/docs/setup.md": SETUP,
        "source/docs/writing.md": "---\ntitle: Writing\n---\n\nCreate a post with hexo new.\n",
        "source/docs/server.md": "---\ntitle: Server\n---\n\nPreview the site with hexo server.\n",
    }
    # a translation not yet finished: its pages at the English paths, some still English
    for name, text in (("setup", THAI), ("writing", None), ("server", None)):
        files[f"source/th/docs/{name}.md"] = text or files[f"source/docs/{name}.md"].replace(
            "with", "using"
        )
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    pkg = Package(out)
    pkg.load()
    assert {pkg.documents[p].title for p in pkg.documents} == {"Setup", "Writing", "Server"}
    assert not [p for p in out.rglob("*") if "scaffold" in str(p) or "plugins" in p.name]
    notes = " ".join(result.notes)
    assert "source/_data/" in notes and "source/th/" in notes
    assert "\n# Hexo\n" in (out / "index.md").read_text("utf-8")
