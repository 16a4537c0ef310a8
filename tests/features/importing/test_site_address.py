"""A site's published address, read from its config, joins the site-rooted links that
name pages the source does not hold (an API reference a site generates from code, a
section mounted from another repository): the shapes of tauri-docs' astro.config.mjs
(``const site = ...`` and the shorthand ``site,``), Jest's and React Native's
docusaurus configs (``const config = {...}; export default config``), OpenTelemetry's
``config/_default/hugo.yaml``, Textual's ``mkdocs-online.yml``, and the scaffold
placeholders a template leaves (rocketmq-site's ``your-docusaurus-test-site.com``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.cli.main import main
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.site_address import is_placeholder, site_address
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.timezone.utc)

TAURI_LIKE = """import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

const site = 'https://v2.tauri.app';

// https://astro.build/config
export default defineConfig({
  site,
  integrations: [starlight({ title: 'Tauri', sidebar: [] })],
});
"""
JEST_LIKE = """/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'Jest',
  // url: 'https://old.example.com',
  url: 'https://jestjs.io',
  baseUrl: '/',
  themeConfig: { navbar: { items: [{ url: 'https://github.com/jestjs/jest' }] } },
};

export default config;
"""


def _read(files: dict[str, str]):
    return lambda rel: files.get(rel)


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"astro.config.mjs": TAURI_LIKE}, ("https://v2.tauri.app", "astro.config.mjs")),
        (
            {"website/docusaurus.config.mjs": JEST_LIKE},
            ("https://jestjs.io", "website/docusaurus.config.mjs"),
        ),
        (
            {"docusaurus.config.js": 'module.exports = {\n  url: "https://metrobundler.dev",\n}\n'},
            ("https://metrobundler.dev", "docusaurus.config.js"),
        ),
        (
            {"config/_default/hugo.yaml": "baseURL: https://opentelemetry.io\ntitle: OTel\n"},
            ("https://opentelemetry.io", "config/_default/hugo.yaml"),
        ),
        (
            {"mkdocs-online.yml": "site_name: Textual\nsite_url: https://textual.textualize.io/\n"},
            ("https://textual.textualize.io/", "mkdocs-online.yml"),
        ),
        (
            {"_config.yml": "title: Docs\nurl: https://docs.acme.io\nbaseurl: /guide\n"},
            ("https://docs.acme.io", "_config.yml"),
        ),
    ],
)
def test_each_generator_says_its_address(files: dict[str, str], expected: tuple) -> None:
    assert site_address(_read(files), list(files)) == expected


@pytest.mark.parametrize(
    "files",
    [
        # a template's placeholder is no address (rocketmq-site, Docusaurus v2's scaffold)
        {
            "docusaurus.config.js": "module.exports = {\n  url: 'https://your-docusaurus-test-site.com',\n}"
        },
        {"mkdocs.yml": "site_name: X\nsite_url: https://example.com/\n"},
        {"hugo.toml": 'baseURL = "http://localhost:1313/"\ntitle = "X"\n'},
        {"hugo.toml": 'baseURL = "/"\ntitle = "X"\n'},  # kubeflow's: a path, no site
        # a site served under a path prefixes it to its rooted links: not joined wrongly
        {"docusaurus.config.js": "module.exports = {url: 'https://acme.io', baseUrl: '/docs/'}"},
        # computed, never run (withastro/docs: previewSite || '...')
        {
            "astro.config.mjs": "const site = preview || 'https://docs.astro.build/';\n"
            "export default defineConfig({ site });\n"
        },
        {"mkdocs.yml": "site_name: X\n"},
    ],
)
def test_no_address_when_the_config_gives_no_real_one(files: dict[str, str]) -> None:
    assert site_address(_read(files), list(files)) is None


def test_the_config_beside_the_table_of_contents_is_read_first() -> None:
    files = {
        "mkdocs.yml": "site_name: Tools\nsite_url: https://tools.acme.io/\n",
        "website/docusaurus.config.js": JEST_LIKE,
    }
    near = "website/sidebars.js"
    assert site_address(_read(files), list(files), near) == (
        "https://jestjs.io",
        "website/docusaurus.config.js",
    )
    assert site_address(_read(files), list(files))[0] == "https://tools.acme.io/"


@pytest.mark.parametrize(
    ("address", "placeholder"),
    [
        ("https://docs.example.org", True),
        ("https://site.test/", True),
        ("https://your-site.com", True),
        ("http://127.0.0.1:8000", True),
        ("https://exampleco.com", False),
        ("https://gohugo.io/", False),
    ],
)
def test_placeholders(address: str, placeholder: bool) -> None:
    assert is_placeholder(address) is placeholder


def _mkdocs_site(site_url: str | None) -> dict[str, str]:
    config = "site_name: Acme\n" + (f"site_url: {site_url}\n" if site_url else "")
    return {
        "mkdocs.yml": config + "nav:\n  - Home: index.md\n  - Guide: guide.md\n",
        "docs/index.md": "# Acme\n\nAcme's docs: start with [the guide](/guide/).\n",
        "docs/guide.md": (
            "# Guide\n\nEvery option is in [the reference](/reference/config/#build), "
            "generated from the schema; [home](/) and ![logo](/img/logo.png).\n"
        ),
    }


def test_a_link_to_a_page_the_site_generates_leads_to_the_site(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "src", _mkdocs_site("https://docs.acme.io/"))
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    guide = (tmp_path / "kb" / "guide.md").read_text("utf-8")
    assert "[the reference](https://docs.acme.io/reference/config/#build)" in guide
    assert "![logo](https://docs.acme.io/img/logo.png)" in guide
    assert "[home](/index-page.md)" in guide  # a page of the source stays the package's
    assert "(/guide/)" not in (tmp_path / "kb" / "index.md").read_text("utf-8")
    [note] = [n for n in result.notes if "site-rooted" in n]
    assert note.startswith("mkdocs.yml: 2 site-rooted links name 2 paths the source holds no")
    assert "https://docs.acme.io/" in note
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_link_base_wins_over_the_sites_own_address(tmp_path: Path) -> None:
    source = write_sources(tmp_path / "src", _mkdocs_site("https://docs.acme.io/"))
    result = build(source, tmp_path / "kb", now=NOW, workers=1, link_base="https://mirror.acme.io")
    guide = (tmp_path / "kb" / "guide.md").read_text("utf-8")
    assert "[the reference](https://mirror.acme.io/reference/config/#build)" in guide
    assert not [n for n in result.notes if "site-rooted" in n]  # the curator said so


def test_without_an_address_the_links_stay_and_the_build_says_how_to_fix_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_sources(tmp_path / "src", _mkdocs_site(None))
    main(["build", str(source), str(tmp_path / "kb"), "--workers", "1", "--no-check"])
    err = capsys.readouterr().err
    guide = (tmp_path / "kb" / "guide.md").read_text("utf-8")
    assert "[the reference](/reference/config/#build)" in guide
    # the note says how to fix them
    assert (
        "docs/guide.md: 2 site-rooted links name 2 paths the source holds no file at "
        "(e.g. /reference/config/): left as written, so check counts them broken; "
        "--link-base https://SITE makes them links to the site\n"
    ) in err


def _book(tmp_path: Path) -> Path:
    """An mdBook like the Rust book: its pages link to the standard library's docs, which
    the host serves beside the book (``../std/``), from inside the book's ``src/``."""
    return write_sources(
        tmp_path / "src",
        {
            "book.toml": '[book]\ntitle = "The Book"\n',
            "src/SUMMARY.md": "# Summary\n\n- [Vectors](ch08-01-vectors.md)\n"
            "    - [Pitfalls](collections/pitfalls.md)\n",
            "src/ch08-01-vectors.md": "# Vectors\n\nSee [`Vec<T>`](../std/vec/struct.Vec.html#method.push) "
            "and [pitfalls](collections/pitfalls.md).\n",
            "src/collections/pitfalls.md": "# Pitfalls\n\nThe [Nomicon](../../nomicon/vec/vec.html) "
            "goes deeper; [vectors](../ch08-01-vectors.md).\n",
        },
    )


def test_a_link_climbing_above_the_served_folder_leads_to_the_site_beside_it(
    tmp_path: Path,
) -> None:
    result = build(
        _book(tmp_path),
        tmp_path / "kb",
        now=NOW,
        workers=1,
        link_base="https://doc.rust.dev/en/book",
    )  # where the pages are served, a trailing slash or not
    vectors = next((tmp_path / "kb").rglob("ch08-01-vectors.md")).read_text("utf-8")
    pitfalls = next((tmp_path / "kb").rglob("pitfalls.md")).read_text("utf-8")
    assert "(https://doc.rust.dev/en/std/vec/struct.Vec.html#method.push)" in vectors
    assert "(https://doc.rust.dev/en/nomicon/vec/vec.html)" in pitfalls  # from its own folder
    assert "https://doc.rust.dev" not in vectors.split("[pitfalls]")[1]  # a page stays one
    assert not [n for n in result.notes if "climb" in n]  # the curator said where
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_without_an_address_climbing_links_stay_and_one_note_counts_them(tmp_path: Path) -> None:
    result = build(_book(tmp_path), tmp_path / "kb", now=NOW, workers=1)
    vectors = next((tmp_path / "kb").rglob("ch08-01-vectors.md")).read_text("utf-8")
    assert "(../std/vec/struct.Vec.html#method.push)" in vectors
    [note] = [n for n in result.notes if "climb" in n]
    assert note == (
        "src/ch08-01-vectors.md: 2 links climb to 2 paths above the folder the site serves "
        "its pages from (e.g. ../std/vec/struct.Vec.html): left as written, so check counts "
        "them broken; --link-base https://SITE/PATH/ (where its pages are served) makes them "
        "links to the site"
    )
