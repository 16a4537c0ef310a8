"""What a Docusaurus config says about where its docs are, read as text and never run:
apache/rocketmq-site's docs options name a version's ``path`` too, and jestjs/jest's
``website/`` keeps its docs in ``../docs``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.features.importing.build import build
from kas_tui.features.importing.build_manifest import BuildError
from kas_tui.features.importing.toc_formats import docusaurus_docs_dir
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
SIDEBARS = '{"docs": ["intro"]}\n'


def docs_dir(config: str) -> str:
    files = {"docusaurus.config.js": config, "sidebars.json": SIDEBARS}
    return docusaurus_docs_dir("sidebars.json", files.get, files)


def test_the_docs_options_own_path_not_a_versions() -> None:
    """The docs folder was read as ``/4.x``, a version's path."""
    config = """module.exports = {
  presets: [['classic', {
    docs: {
      sidebarPath: require.resolve('./sidebars.json'),
      versions: { current: { label: '5.0', path: '/4.x' } },
      path: 'manual',
    },
  }]],
};
"""
    assert docs_dir(config) == "manual"
    without = config.replace("      path: 'manual',\n", "")
    assert docs_dir(without) == "docs"  # none of its own: docs beside the sidebars
    assert docs_dir("module.exports = {docs: {path: '../docs'}};") == "../docs"


def test_docs_outside_the_source_are_said_and_the_rest_is_built(tmp_path: Path) -> None:
    config = "module.exports = {presets: [['classic', {docs: {path: '../docs'}}]]};\n"
    files = {
        "docusaurus.config.js": config,
        "sidebars.json": SIDEBARS,
        "blog/2024-01-01-release.md": "# Jest 30\n\nJest 30 is out with faster runs.\n",
        # prettier's website/: its earlier versions are left out as from its root
        "versioned_docs/version-29/intro.md": "# Intro\n\nThe intro of version 29.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    assert result.created == ["blog/2024-01-01-release.md"], result.created
    assert (
        "1 file of the docs' earlier versions (versioned_docs/), not the current docs; left out"
    ) in result.notes
    assert (
        "sidebars.json:1: its config keeps the docs in ../docs, outside the source: the "
        "sidebars were not read; build from the folder holding the docs"
    ) in result.notes


def test_a_build_left_with_no_pages_says_why(tmp_path: Path) -> None:
    """Every page outside the site's docs folder: the error said "none of its 0 files
    could be converted", and the notes saying why were never shown."""
    files = {
        "docusaurus.config.js": "module.exports = {docs: {path: 'docs'}};\n",
        "sidebars.json": SIDEBARS,
        "website/page.md": "# A page\n\nOutside the docs folder.\n",
    }
    with pytest.raises(BuildError) as caught:
        build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    message = str(caught.value)
    assert "no pages left to build" in message
    assert "outside the docs folder the site builds its docs from, docs/" in message


def test_a_docs_folder_built_without_its_site_follows_its_categories(tmp_path: Path) -> None:
    """apache/rocketmq-site's ``docs/`` built alone (no ``sidebars.js`` in it): its
    folders were bundles "00 introduction", "01 quickstart"; Docusaurus generates the
    sidebar from their ``_category_.json`` labels and positions."""
    from kas_tui.core.okf.index import parse_index

    files = {
        "00-introduction/_category_.json": '{"label": "基本概念", "position": 0}',
        "00-introduction/01whychoose.md": "# 为什么选择RocketMQ\n\nRocketMQ 是一个消息队列。\n",
        "01-quickstart/_category_.json": '{"label": "快速开始", "position": 1}',
        "01-quickstart/01quickstart.md": "# 本地部署\n\n在本地部署 RocketMQ。\n",
        "02-producer/01concept1.md": "# 基本概念\n\n生产者的基本概念。\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    root = parse_index((tmp_path / "kb" / "index.md").read_text("utf-8"))
    # labelled as their _category_.json says, in its positions; a folder without one
    # by its name without the number prefix
    assert [e.title for e in root.entries] == ["基本概念", "快速开始", "producer"]


def test_a_tagline_written_with_escapes_reads_as_the_site_shows_it() -> None:
    """facebook/metro's tagline is ``'\\ud83d\\ude87 The JavaScript bundler for React
    Native'``: SKILL.md showed the escapes."""
    from kas_tui.features.importing.site_about import site_about

    config = (
        "module.exports = {\n  title: 'Metro',\n"
        "  tagline: '\\ud83d\\ude87 The JavaScript bundler for React Native',\n};\n"
    )
    files = {"docusaurus.config.js": config}
    assert site_about(files.get, files) == (
        "Metro",
        "\U0001f687 The JavaScript bundler for React Native",
    )


def test_a_docs_folder_built_alone_resolves_its_sites_links(tmp_path: Path) -> None:
    """facebook/metro's ``docs/`` built alone: ``/docs/configuration#x`` (the folder as
    the site serves it, under its own name) and ``./configuration#x`` (a page as any
    site serves it, without its extension; the file is ``Configuration.md``) were
    broken."""
    from kas_tui.core.package import Package
    from kas_tui.features.check import check

    files = {
        "Configuration.md": "# Configuration\n\nSet the resolver options here.\n",
        "Resolution.md": "# Resolution\n\nSee [the option](./configuration#resolver) and "
        "[the page](/docs/configuration#resolver).\n",
    }
    source = write_sources(tmp_path / "docs", files)
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken


def test_files_the_site_serves_as_they_are_stay_for_its_pages(tmp_path: Path) -> None:
    """prettier's and jest's docs show images from ``website/static/`` (served at the
    site's root, ``/images/...``): left out with the site's code, their links broke."""
    from kas_tui.core.package import Package
    from kas_tui.features.check import check

    files: dict[str, str | bytes] = {
        "website/docusaurus.config.js": "module.exports = {docs: {path: '../docs'}};\n",
        "website/sidebars.json": '{"docs": ["intro"]}\n',
        "website/static/images/shot.png": b"\x89PNG\r\n\x1a\n",
        "website/src/pages/index.js": "export default () => null;\n",
        "docs/intro.md": "# Intro\n\n![The settings](/images/shot.png) shows the options.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    assert not list((tmp_path / "kb").rglob("index.js"))  # the site's code stays out


def test_the_configs_own_title_names_the_site_not_a_footer_columns() -> None:
    """pnpm.io's ``docusaurus.config.ts`` writes its keys quoted (``"title": "pnpm"``)
    and has footer columns titled 'Docs' and 'Community': the package was titled
    "Docs", the first ``title:`` anywhere in the file."""
    from kas_tui.features.importing.site_about import site_about

    config = (
        "const docusaurusConfig = {\n"
        '  "title": "pnpm",\n  "tagline": "Fast, disk space efficient package manager",\n'
        "  themeConfig: { footer: { links: [\n"
        "    { title: 'Docs', items: [] }, { title: 'Community', items: [] },\n"
        "  ] } },\n};\n\nexport default docusaurusConfig;\n"
    )
    files = {"docusaurus.config.ts": config}
    assert site_about(files.get, files) == ("pnpm", "Fast, disk space efficient package manager")
    footer_first = "module.exports = {\n  themeConfig: {title: 'Docs'},\n  title: 'Jest',\n};\n"
    files = {"docusaurus.config.js": footer_first}
    assert site_about(files.get, files)[0] == "Jest"


def _adguard_like(trailing: str) -> dict[str, str | bytes]:
    """AdguardTeam/KnowledgeBase's shape: an autogenerated sidebar, categories named
    by ``_category_.json``, a category doc named as its folder, and relative links
    written against the page's URL."""
    page = "---\ntitle: {0}\n---\n\n{1}\n"
    return {
        "docusaurus.config.js": "module.exports = {\n  title: 'KB',\n  url: 'https://kb.example',"
        f"\n  baseUrl: '/',\n{trailing}  presets: [['classic', {{docs: {{routeBasePath: '/'}}}}]],\n}};\n",
        "sidebars.js": "module.exports = {\n  s: [{type: 'autogenerated', dirName: '.'}],\n};\n",
        "docs/intro.md": page.format("Overview", "What the products do."),
        "docs/for-windows/_category_.json": '{"label": "AdGuard for Windows", "position": 2}',
        "docs/for-windows/for-windows.md": page.format("AdGuard for Windows", "The app."),
        "docs/for-windows/installation.md": page.format("Installation", "Run the installer."),
        "docs/for-windows/web-extension.md": page.format(
            "Web extension", "Please [install it first](../installation) to use it."
        ),
        "docs/for-windows/solving-problems/_category_.json": '{"label": "Solving problems"}',
        **{
            f"docs/for-windows/solving-problems/issue-{n}.md": page.format(
                f"Known issue {n}", f"Issue {n} happens when the driver is old."
            )
            for n in range(6)
        },
    }


def _broken(kb: Path) -> list[str]:
    from kas_tui.core.package import Package
    from kas_tui.features.check import check

    pkg = Package(kb)
    pkg.load()
    return [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_with_trailing_slashes_a_relative_link_is_read_from_the_pages_own_path(
    tmp_path: Path,
) -> None:
    """With ``trailingSlash: true`` Docusaurus serves ``web-extension.md`` at
    ``/for-windows/web-extension/``, so its ``../installation`` is the page beside it:
    AdguardTeam/KnowledgeBase's 52 such links were counted broken."""
    source = write_sources(tmp_path / "src", _adguard_like("  trailingSlash: true,\n"))
    build(source, tmp_path / "kb", now=NOW, workers=1)
    assert _broken(tmp_path / "kb") == []
    page = next((tmp_path / "kb").rglob("web-extension.md")).read_text("utf-8")
    assert "[install it first](installation.md)" in page
    # without trailing slashes the same link leads above the folder, as in a browser
    source = write_sources(tmp_path / "src2", _adguard_like(""))
    build(source, tmp_path / "kb2", now=NOW, workers=1)
    assert len(_broken(tmp_path / "kb2")) == 1


def test_a_category_holding_a_larger_section_keeps_its_own_name(tmp_path: Path) -> None:
    """Most of "AdGuard for Windows"' pages sit in its "Solving problems" folder: the
    category named only that inner folder, and its own was titled from its slug,
    "Adguard for windows"."""
    build(write_sources(tmp_path / "src", _adguard_like("")), tmp_path / "kb", now=NOW)
    root = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert "[AdGuard for Windows](for-windows/)" in root
    inner = (tmp_path / "kb" / "for-windows" / "index.md").read_text("utf-8")
    assert inner.startswith("# AdGuard for Windows\n") or "\n# AdGuard for Windows\n" in inner
    assert "[Solving problems](solving-problems/)" in inner


def test_typed_sidebars_with_an_entry_code_makes_are_read_but_that_entry(
    tmp_path: Path,
) -> None:
    """trpc/trpc's ``www/sidebars.ts``: ``const config: SidebarsConfig = {...}; export
    default config;`` whose list ends with ``...(env.TYPEDOC ? [typeDoc] : [])``. The
    whole was "built by code", unread, so the package's root was its folders."""
    sidebars = """\
import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';
const env = parseEnv(process.env);
const typeDoc = { type: 'category', label: 'API', items: [] };
const config: SidebarsConfig = {
  docs: [
    { type: 'category', label: 'Getting started', items: ['main/introduction', 'main/quickstart'] },
    { type: 'category', label: 'Backend Usage', items: ['server/routers', 'server/context', 'server/middlewares'] },
    ...(env.TYPEDOC ? [typeDoc] : []),
  ],
};

export default config;
"""
    files = {
        "www/docusaurus.config.ts": "export default { title: 'tRPC', url: 'https://trpc.io' };\n",
        "www/sidebars.ts": sidebars,
        "www/docs/main/introduction.md": "# Introduction\n\ntRPC lets you build typesafe APIs.\n",
        "www/docs/main/quickstart.md": "# Quickstart\n\nInstall it.\n",
        "www/docs/server/routers.md": "# Define Routers\n\nA router holds procedures.\n",
        "www/docs/server/context.md": "# Context\n\nThe context is shared.\n",
        "www/docs/server/middlewares.md": "# Middlewares\n\nRun code around procedures.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0 and not result.failed, result.report
    root = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert "Backend Usage" in root and "Getting started" in root, root
    assert not [n for n in result.notes if "built by code" in n], result.notes
    said = [n for n in result.notes if "entries made by code" in n]
    assert said and said[0].startswith("www/sidebars.ts:8: "), result.notes
