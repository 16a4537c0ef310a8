"""A TiddlyWiki folder (``.tid`` tiddlers, as TiddlyWiki on Node.js keeps a wiki): the
fields are the frontmatter, wikitext shows as Markdown, the wiki's own ``$:/``
tiddlers and ``.meta`` sidecars are no pages. Built as text before, TiddlyWiki5's
root listed bundles "title: $:/core/readme" and "Title" (its header lines)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.tiddlywiki import read_tiddler, wikitext_as_markdown
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.timezone.utc)


def test_the_fields_are_the_frontmatter() -> None:
    text = (
        "created: 20140210141217955\ntags: [[Getting started]] Filters\ntitle: Filter Syntax\n"
        "type: text/vnd.tiddlywiki\n\n! Syntax\n\nA ''filter'' is //a list// of steps.\n"
    )
    found = read_tiddler(text)
    assert found is not None
    fields, body = found
    assert fields["title"] == "Filter Syntax"
    assert fields["tags"] == ["Getting started", "Filters"]
    assert fields["tiddler-type"] == "text/vnd.tiddlywiki" and "type" not in fields
    assert body == "# Syntax\n\nA **filter** is *a list* of steps.\n"
    assert read_tiddler("Just a text file: with a colon\n") is None  # no title: no tiddler
    code = read_tiddler("title: $:/core/x.js\ntype: application/javascript\n\nvar a = 1;\n")
    assert code is not None and code[1] == "```javascript\nvar a = 1;\n```\n"


def test_wikitext_shows_as_markdown() -> None:
    text = (
        "!! Install\n# First\n## Nested\n* Bullet\n** Deeper\n> Quoted\n"
        "See [ext[the site|https://tiddlywiki.com/]] and [img[logo.png]], "
        "http://example.org//path stays.\n```\n! not a heading\n```\n"
    )
    assert wikitext_as_markdown(text) == (
        "## Install\n1. First\n  1. Nested\n- Bullet\n  - Deeper\n> Quoted\n"
        "See [the site](https://tiddlywiki.com/) and ![](logo.png), "
        "http://example.org//path stays.\n```\n! not a heading\n```\n"
    )


def test_a_tiddlywiki_folder_builds_as_its_tiddlers_read(tmp_path: Path) -> None:
    files = {
        "tiddlers/HelloThere.tid": "title: HelloThere\ntags: Welcome\n\n"
        "Welcome! Start with [[Getting Started|GettingStarted]] or [[Filter Syntax]].\n",
        "tiddlers/GettingStarted.tid": "title: GettingStarted\ncaption: Getting started\n\n"
        "! Install\n\nDownload the empty wiki and open it in a browser.\n",
        "tiddlers/Filter_Syntax.tid": "title: Filter Syntax\n\nA filter selects tiddlers.\n",
        "tiddlers/$__SiteTitle.tid": "title: $:/SiteTitle\n\nMy notes\n",
        "tiddlers/images/logo.png": b"\x89PNG\r\n\x1a\nlogo",
        "tiddlers/images/logo.png.meta": "title: logo.png\ntype: image/png\n",
    }
    source = write_sources(tmp_path / "wiki", files)
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert not result.failed, result.failed
    record = json.loads((tmp_path / "kb" / ".kas-build.json").read_text(encoding="utf-8"))
    built = set(record["documents"])
    assert "tiddlers/$__SiteTitle.tid" not in built
    assert "tiddlers/images/logo.png.meta" not in built
    assert any("TiddlyWiki system tiddler" in n for n in result.notes), result.notes
    assert any("TiddlyWiki .meta file" in n for n in result.notes), result.notes
    pkg = Package(tmp_path / "kb")
    pkg.load()
    titles = {d.title for d in pkg.documents.values()}
    assert titles == {"HelloThere", "GettingStarted", "Filter Syntax"}
    hello = next(d for d in pkg.documents.values() if d.title == "HelloThere")
    body = (tmp_path / "kb" / hello.path).read_text(encoding="utf-8")
    assert "[Getting Started](gettingstarted.md)" in body and "[[" not in body, body
    assert "[Filter Syntax](filter-syntax.md)" in body


def test_fields_are_read_as_tiddlywiki_reads_them() -> None:
    """A blank line above the fields, as TiddlyWiki5's ``tiddlywiki.js.tid`` opens: the
    build's check for system tiddlers read it as one, its conversion as plain text
    (TiddlyWiki5's "Pragma" was described "Text file whose text opens with “created:
    ..., title: Pragma”"). One reading for both, TiddlyWiki's."""
    from kas_tui.features.importing.tiddlywiki import tiddler_fields

    text = "\ntitle: $:/core/templates/tiddlywiki5.js\n\n`/*` code `*/`\n"
    assert tiddler_fields(text) == ({"title": "$:/core/templates/tiddlywiki5.js"}, 3)
    found = read_tiddler("created: 20150219175930000\ntitle: Pragma\n\nSee [[Pragmas]].\n")
    assert found is not None and found[0]["title"] == "Pragma"
    assert found[1] == "See [[Pragmas]].\n"
