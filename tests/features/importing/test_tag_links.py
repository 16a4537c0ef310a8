"""Links written in HTML and JSX tags, as MDX landing pages write them (dub, trigger.dev,
mintlify/docs: ``<Card title="Quickstart" href="/quickstart">``); built before, they
kept the site's address where the package holds ``quickstart.md``."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.features.importing.build import build
from kas_tui.features.importing.tag_links import rewrite_tag_links
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def test_each_tags_href_and_src_outside_code_is_rewritten() -> None:
    text = (
        '<Card title="Quickstart" href="/quickstart" icon="rocket">\n  Deploy.\n</Card>\n'
        "<Card\n  title=\"React\"\n  href='/docs/react'\n>\n</Card>\n"
        '<Card href={"/guides/x"} />\n'
        '<img src="/images/hero.png" alt="hero" />\n'
        'Inline `<a href="/quickstart">` stays, as does https: '
        '<a href="https://example.com">x</a> and <a href="#top">top</a>.\n'
        '```jsx\n<Card href="/quickstart" />\n```\n'
    )
    moved = {
        "/quickstart": "/quickstart.md",
        "/docs/react": "/docs/react.md",
        "/guides/x": "/guides/x.md",
        "/images/hero.png": "/assets/images/hero.png",
    }
    out = rewrite_tag_links(text, moved.get)
    assert '<Card title="Quickstart" href="/quickstart.md" icon="rocket">' in out
    assert "href='/docs/react.md'" in out
    assert 'href={"/guides/x.md"}' in out
    assert 'src="/assets/images/hero.png"' in out
    assert 'Inline `<a href="/quickstart">` stays' in out
    assert '```jsx\n<Card href="/quickstart" />\n```' in out
    assert rewrite_tag_links("No tags here.\n", moved.get) == "No tags here.\n"


def test_a_cards_link_leads_to_the_page_in_the_package(tmp_path: Path) -> None:
    docs = {
        "$schema": "https://mintlify.com/docs.json",
        "name": "Acme",
        "navigation": {"groups": [{"group": "Start", "pages": ["index", "guides/quickstart"]}]},
    }
    files = {
        "docs.json": json.dumps(docs),
        "index.mdx": '---\ntitle: Home\n---\n\n<CardGroup>\n  <Card\n    title="Quickstart"\n'
        '    href="/guides/quickstart"\n  >\n    Deploy in five minutes.\n  </Card>\n</CardGroup>\n',
        "guides/quickstart.mdx": "---\ntitle: Quickstart\n---\n\nDeploy the site.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    home = next(p for p in (tmp_path / "kb").glob("index-page.md")).read_text("utf-8")
    # the card reads as the site draws it: a link to the page, then its words
    assert "[Quickstart](/guides/quickstart.md)\n\n  Deploy in five minutes.\n" in home
    assert "<Card" not in home and "<CardGroup" not in home


def test_an_xml_example_in_a_markdown_page_keeps_its_elements(tmp_path: Path) -> None:
    """officedocs-support's Autodiscover article (and PowerShell-Docs' help XML): its
    capitalised elements, four spaces in, are an example's, no components to unwrap."""
    from kas_tui.features.importing.convert import Limits, convert_here

    page = tmp_path / "autodiscover.md"
    xml = "    <AutoDiscover>\n      <Server>servername.domain2.com</Server>\n    </AutoDiscover>\n"
    page.write_text(f"# Autodiscover\n\nAdd this to the file:\n\n{xml}\nThen restart.\n", "utf-8")
    assert xml in convert_here(page, Limits()).markdown
