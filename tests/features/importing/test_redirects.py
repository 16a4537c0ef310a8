"""A site's map of moved pages: biomejs/website links 519 times to rule pages at the
addresses its ``redirects.js`` (spread into the Astro config's ``redirects``) moves to
per-language pages; those links were all reported broken."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.redirects import follow, redirect_map, served_key
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
ASTRO = """\
import starlight from '@astrojs/starlight';
import redirects from './redirects.js';

export default defineConfig({
  integrations: [starlight({ title: 'Biome' })],
  redirects: {
    '/old-cli': { status: 301, destination: '/reference/cli/' },
    ...redirects,
    '/reference/reporters': '/reference/cli/#reporter-flags',
  },
});
"""
REDIRECTS_JS = """// generated
export default {
  '/linter/rules/no-access-key': '/linter/rules/no-access-key/javascript',
};
"""


def test_every_kind_of_map_is_read_as_the_site_reads_it() -> None:
    files = {
        "_redirects": "/old-guide /guide/new  301\n/fr/* /fr/404 404\n/ext https://x.io/y\n",
        ".openpublishing.redirection.json": '\ufeff{"redirections": [{"source_path": '
        '"docs/moved.md", "redirect_url": "/docs/here"}]}',
        "mkdocs.yml": "site_name: X\nplugins:\n  - redirects:\n      redirect_maps:\n"
        "        'old.md': 'new.md'\n",
    }
    toc = SimpleNamespace(file="mkdocs.yml", kind="mkdocs")
    moved = redirect_map(files, files.get, toc)
    # a * rule and a move to another site are none of ours
    assert moved == {"old-guide": "/guide/new", "docs/moved": "/docs/here", "old": "new.md"}
    assert served_key("/guide/new.html#x") == "guide/new"
    # a loop ends, moves chain
    assert list(follow({"a": "/b", "b": "/c", "c": "/a"}, "/a")) == ["/b", "/c"]


def test_links_to_moved_pages_lead_where_the_site_sends_them(tmp_path: Path) -> None:
    docs = "src/content/docs/"
    files = {
        "astro.config.mjs": ASTRO,
        "redirects.js": REDIRECTS_JS,
        docs + "linter/rules/no-access-key/javascript.mdx": "# noAccessKey\n\nNo access key.\n",
        docs + "reference/cli.mdx": "# CLI\n\n## Reporter flags\n\nFlags.\n",
        # a move written as an object comes before the spread: both are read
        docs + "guide.mdx": "# Guide\n\nSee [the rule](/linter/rules/no-access-key), "
        "[reporters](/reference/reporters) and [the CLI](/old-cli).\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken


def test_a_folder_moved_by_pattern_sends_every_address_in_it() -> None:
    # crewAI's docs.json: /concepts/:path* -> /v1.15.17/en/concepts/:path*; 71 of its 134
    # broken links were to such addresses. Netlify's /old/* -> /new/:splat alike.
    import json

    docs = {
        "$schema": "https://mintlify.com/docs.json",
        "name": "CrewAI",
        "navigation": {"pages": ["index"]},
        "redirects": [
            {"source": "/concepts/:path*", "destination": "/v1.15.17/en/concepts/:path*"},
            {"source": "/en/:slug*", "destination": "/v1.15.17/en/:slug*"},
            {"source": "/users/:id/edit", "destination": "/people/:id"},
            {"source": "/enterprise/:path*", "destination": "https://platform.example/:path*"},
            {"source": "/installation", "destination": "/v1.15.17/en/installation"},
        ],
    }
    files = {
        "docs.json": json.dumps(docs),
        "_redirects": "/old/*  /new/:splat  301\n/blog/:year/:slug /posts/:slug\n",
    }
    moved = redirect_map(set(files), files.get, SimpleNamespace(kind="mintlify", file="docs.json"))
    assert list(follow(moved, "/concepts/agents#tools")) == ["/v1.15.17/en/concepts/agents"]
    assert list(follow(moved, "/en/guides/flows/first-flow")) == [
        "/v1.15.17/en/guides/flows/first-flow"
    ]
    assert list(follow(moved, "/users/42/edit")) == ["/people/42"]
    assert list(follow(moved, "/installation")) == ["/v1.15.17/en/installation"]
    assert list(follow(moved, "/old/a/b.html")) == ["/new/a/b"]
    assert list(follow(moved, "/blog/2024/launch")) == ["/posts/launch"]
    assert list(follow(moved, "/enterprise/sso")) == []  # another site: no page here
    assert list(follow(moved, "/guides/x")) == []


# -- HTML pages that only redirect (Business Central's help: 1,229 in pages/) -----------------

JEKYLL_STUB = (
    '<!DOCTYPE html>\n<html lang="en-US">\n  <meta charset="utf-8">\n'
    "  <title>Redirecting&hellip;</title>\n"
    '  <link rel="canonical" href="/guide/install/">\n'
    '  <script>location="/guide/install/"</script>\n'
    '  <meta http-equiv="refresh" content="0; url=/guide/install/">\n'
    '  <meta name="robots" content="noindex">\n  <h1>Redirecting&hellip;</h1>\n'
    '  <a href="/guide/install/">Click here if you are not redirected.</a>\n</html>\n'
)


def test_a_page_that_only_redirects_is_told_from_a_page_with_a_refresh() -> None:
    from kas_tui.features.importing.redirects import refresh_target

    assert refresh_target('<meta http-equiv="refresh" content="0; URL=\'start.html\'" />') == (
        "start.html"
    )
    assert refresh_target(JEKYLL_STUB) == "/guide/install/"
    # a page of its own that also refreshes (a status board) is a page
    board = '<meta http-equiv="refresh" content="30"><h1>Status</h1><p>' + "All systems up. " * 8
    assert refresh_target(board) is None
    assert refresh_target("<p>Moved? No: this page explains moving.</p>") is None


ELEVENTY_REDIRECT = """---js
{
  pagination: { data: "collections.all", size: 1, alias: "redirect",
    before: function (data) { return data.filter(({ to, from }) => to !== from); } },
  layout: "layouts/pure",
  permalink: "{{ redirect.from }}/index.html",
  eleventyExcludeFromCollections: true,
}
---
<!DOCTYPE html>
<html lang="en-US"><head><title>Redirecting&hellip;</title>
<meta http-equiv="refresh" content="0; url={% page redirect.to %}" /></head>
<body><h1>Redirecting&hellip;</h1>
<a href="{% page redirect.to %}">Click here if you are not redirected.</a></body></html>
"""


def test_an_eleventy_redirect_template_is_no_page(tmp_path: Path) -> None:
    """18F's handbook: the template Eleventy makes every redirect page from, its
    settings in a ``---js`` front matter, was built as a page "Redirecting…"."""
    result, pkg = _built(
        tmp_path,
        {
            "pages/redirect.html": ELEVENTY_REDIRECT,
            "pages/travel.md": "# Travel\n\nBook travel through the agency's system.\n",
        },
    )
    assert sorted(pkg.documents) == ["travel.md"]
    [note] = [n for n in result.notes if "meta refresh" in n]
    assert "-> an address the site's template fills in" in note


def _built(tmp_path: Path, files: dict[str, str | bytes]) -> tuple[Any, Package]:
    """The build of ``files`` (no failure, no error) and its package, loaded."""
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.failed == [] and result.errors == 0
    pkg = Package(tmp_path / "kb")
    pkg.load()
    return result, pkg


def test_redirect_pages_are_no_pages_and_links_to_them_lead_on(tmp_path: Path) -> None:
    result, pkg = _built(
        tmp_path,
        {
            "start.md": "# Get started\n\nSign in, then open [help](pages/N_12.htm).\n",
            "pages/N_1.htm": '<meta http-equiv="refresh" content="0; URL=\'../start.md\'" />',
            "pages/N_12.htm": '<meta http-equiv="refresh" content="0; URL=\'../help.md\'" />',
            "help.md": "# Help\n\nAsk the service desk when the portal refuses your sign-in.\n",
        },
    )
    assert sorted(pkg.documents) == ["help.md", "start.md"]
    assert "[help](help.md)" in (tmp_path / "kb" / "start.md").read_text("utf-8")
    [note] = [n for n in result.notes if "meta refresh" in n]
    assert note.startswith("pages/N_1.htm: 2 files only send the reader on to another page")


def test_a_page_whose_front_matter_only_redirects_is_followed_not_built(
    tmp_path: Path, capfd
) -> None:
    """jekyll/jekyll's ``docs/pages/redirects/github.html`` is front matter alone
    (``redirect_to: https://github.com/jekyll/jekyll``): it became an empty document
    described "Web page imported from github.html", and MarkItDown's HTML reader, given
    no bytes, wrote "Some characters could not be decoded..." to the terminal. Such a
    page is a redirect, as a meta refresh is: no page, and a link to it leads on."""
    result, pkg = _built(
        tmp_path,
        {
            "guide.md": "# Guide\n\nBuild a site step by step; the [old page](pages/old.md) "
            "moved.\n",
            "pages/github.html": "---\npermalink: /github.html\nredirect_to: https://example.com/r\n---\n",
            "pages/old.md": "---\ntitle: Old\nredirect_to:\n  - ../guide.md\n---\n\n",
            # a page that redirects and still says something is a page
            "pages/moved.md": "---\nredirect_to: /guide/\n---\n# Moved\n\nThe guide moved; here is why.\n",
        },
    )
    assert sorted(pkg.documents) == ["guide.md", "pages/moved.md"]
    assert "[old page](guide.md)" in (tmp_path / "kb" / "guide.md").read_text("utf-8")
    [note] = [n for n in result.notes if "only send the reader" in n]
    assert note.startswith("pages/github.html: 2 files only send the reader on to another page"), (
        note
    )
    assert "(redirect_to: pages/github.html -> https://example.com/r)" in note, note
    assert "REPLACEMENT CHARACTER" not in capfd.readouterr().err


def test_a_docfx_page_whose_metadata_only_redirects_is_followed_not_built(tmp_path: Path) -> None:
    """dotnet/docfx's own docs keep 13 retired tutorials as front matter alone
    (``redirect_url: ../docs/table-of-contents.html``, docfx's key): each became an
    empty document titled by its file ("Intro toc", "Walkthrough create a docfx project
    2") and described "Document imported from intro_toc.md"."""
    result, pkg = _built(
        tmp_path,
        {
            "docfx.json": '{"build": {"content": [{"files": ["**/*.md", "**/toc.yml"]}]}}',
            "docs/table-of-contents.md": "# Table of contents\n\nA `toc.yml` orders the pages "
            "of a site and names the sections of its navigation.\n",
            "docs/guide.md": "# Guide\n\nStart with the [TOC tutorial](../tutorial/intro_toc.md) "
            "before you write pages.\n",
            "tutorial/intro_toc.md": "---\nredirect_url: ../docs/table-of-contents.html\n---\n",
        },
    )
    assert sorted(pkg.documents) == ["docs/guide.md", "docs/table-of-contents.md"]
    guide = (tmp_path / "kb" / "docs" / "guide.md").read_text("utf-8")
    assert "[TOC tutorial](table-of-contents.md)" in guide, guide
    [note] = [n for n in result.notes if "only sends the reader" in n]
    assert "(redirect_url: tutorial/intro_toc.md -> " in note, note
