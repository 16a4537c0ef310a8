"""A VitePress site as vitejs/vite keeps it: ``docs/.vitepress/config.ts`` (a hidden
folder) whose ``themeConfig.sidebar`` is an object of lists keyed by the path they
serve, named by ``themeConfig.nav``; a label computed by a template string; the
repository's code, playground and lockfiles around ``docs/``; a home page of
``<script setup>`` and a component.

Built whole, vite's repository made 630 pages of its packages and playground,
``pnpm-lock.md`` among them, with the site's sidebar unread (``.vitepress`` was
skipped as a hidden folder)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import read_toc
from kas_tui.features.importing.toc_vitepress import vitepress_about
from tests.helpers.build_sources import built_clean, source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
CONFIG = """\
import { defineConfig } from 'vitepress'
const viteMajorVersion = 8

export default defineConfig({
  title: 'Vite',
  description: 'Next Generation Frontend Tooling',
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/', activeMatch: '/guide/' },
      { text: 'Config', link: '/config/' },
    ],
    sidebar: {
      '/guide/': [
        {
          text: 'Introduction',
          items: [
            { text: 'Getting Started', link: '/guide/' },
            { text: 'Why Vite', link: '/guide/why' },
          ],
        },
        {
          text: 'Migration',
          items: [
            { text: `Migration from v${viteMajorVersion - 1}`, link: '/guide/migration' },
          ],
        },
      ],
      '/config/': [
        { text: 'Config', items: [{ text: 'Shared Options', link: '/config/shared-options' }] },
      ],
    },
  },
})
"""


def page(title: str, body: str = "") -> str:
    return f"# {title}\n\n{body or title + ' explains one part of the tool.'}\n"


def vite_like() -> dict[str, str | bytes]:
    return {
        "docs/.vitepress/config.ts": CONFIG,
        "docs/.vitepress/theme/index.ts": "export default {}\n",
        "docs/index.md": "---\nlayout: home\n---\n\n<script setup>\nimport Home from "
        "'./.vitepress/theme/Layout.vue'\n</script>\n\n<Home />\n",
        "docs/guide/index.md": page("Getting Started", "Start with [why](./why)."),
        "docs/guide/why.md": page("Why Vite"),
        "docs/guide/migration.md": page("Migration from v7"),
        "docs/config/shared-options.md": page("Shared Options", "See [the guide](/guide/)."),
        "docs/team.md": page(
            "Meet the Team",
            "![cover](/og-image.webp) See [why](/guide/why.html#origins) first.",
        ),
        "docs/public/og-image.webp": b"RIFF....WEBPVP8 ",
        "packages/vite/README.md": page("vite package"),
        "playground/alias/index.html": "<html><body><h1>Alias</h1><p>alias test</p></body></html>",
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "package.json": '{"name": "vite-monorepo"}',
    }


def test_a_vitepress_repository_builds_its_sites_sidebar(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", vite_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(pkg.documents) == [
        "config/shared-options.md",
        "guide/index-page.md",
        "guide/migration.md",
        "guide/why.md",
        "team.md",
    ]  # the home is its theme's component, <Home />: no page (the config says what it is)
    root = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert root.splitlines()[3] == "# Vite"
    assert "import Home" not in root
    guide = parse_index((tmp_path / "kb" / "guide" / "index.md").read_text("utf-8"))
    assert [s.title for s in guide.sections if s.level == 2] == ["Introduction", "Migration"]
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    skill = (tmp_path / "kb" / "SKILL.md").read_text("utf-8")
    assert "Vite: Next Generation Frontend Tooling." in skill


def test_the_site_title_and_a_sidebar_built_by_code(tmp_path: Path) -> None:
    assert vitepress_about(CONFIG) == ("Vite", "Next Generation Frontend Tooling")
    assert vitepress_about("export default { title: `Vite${x}` }") == (None, None)
    # a sidebar a function builds is said, and the folders are the tree
    config = (
        "export default defineConfig({\n  themeConfig: {\n    sidebar: makeSidebar(),\n  },\n})\n"
    )
    files = {"docs/.vitepress/config.ts": config, "docs/guide/a.md": page("A")}
    root = write_sources(tmp_path / "src", files)
    names = source_files(root)
    toc = read_toc("docs/.vitepress/config.ts", lambda r: (root / r).read_text("utf-8"), names)
    assert toc is not None and toc.roots == [] and toc.docs_dir == "docs"
    assert toc.problems == [
        "docs/.vitepress/config.ts:3: its sidebar is no plain list or object in this file "
        "(built by code, or imported from another): not read; the folders are the tree"
    ]


def test_a_site_beside_a_scaffold_with_its_pages_in_an_english_folder(tmp_path: Path) -> None:
    """vuejs/vitepress: ``docs/.vitepress/config.ts`` (no sidebar of its own: each
    language's is imported) beside ``template/.vitepress/config.js`` (the scaffold
    ``create`` copies), the English pages in ``docs/en/``, the others translated,
    ``docs/public/`` the site's files. The repository was built whole."""
    config = "export default defineConfig({ title: 'VitePress', themeConfig: {} })\n"
    files: dict[str, str | bytes] = {
        "docs/.vitepress/config.ts": config,
        "template/.vitepress/config.js": "export default { title: 'My Site' }\n",
        "template/index.md": page("My Site"),
        "docs/en/index.md": page("VitePress"),
        "docs/en/guide/getting-started.md": page("Getting Started"),
        "docs/en/guide/routing.md": page("Routing"),
        "docs/es/guide/getting-started.md": page("Primeros pasos"),
        "docs/public/logo.svg": "<svg/>",
        "src/client/app.ts": "export {}\n",
        "package.json": "{}",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(pkg.documents) == [
        "guide/getting-started.md",
        "guide/routing.md",
        "index-page.md",
    ]
    assert (tmp_path / "kb" / "assets" / "public" / "logo.svg").is_file()
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# VitePress"


def test_a_themes_config_with_its_sidebar_in_an_exported_const(tmp_path: Path) -> None:
    # vuejs/docs: `export default defineConfigWithTheme<ThemeConfig>({ ... themeConfig:
    # { nav, sidebar, ... } })` with `export const sidebar: ThemeConfig['sidebar'] = {...}`;
    # built before, the config was not found (598 broken links, a "Src" bundle)
    config = (
        "import { defineConfigWithTheme } from 'vitepress'\n"
        "export const sidebar: ThemeConfig['sidebar'] = {\n"
        "  '/guide/': [\n    { text: 'Essentials', items: [{ text: 'Introduction', link: '/guide/introduction' }] },\n  ],\n"
        "}\n"
        "export default defineConfigWithTheme<ThemeConfig>({\n"
        "  srcDir: 'src',\n  title: 'Vue.js',\n  themeConfig: {\n    nav,\n    sidebar,\n  },\n})\n"
    )
    files = {
        ".vitepress/config.ts": config,
        "src/index.md": page("Vue.js"),
        "src/guide/introduction.md": page("Introduction"),
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    }
    toc = read_toc(".vitepress/config.ts", files.get, set(files))
    assert toc is not None and toc.docs_dir == "src"
    assert [(n.title, [c.title for c in n.children]) for n in toc.roots] == [
        ("Guide", ["Essentials"])
    ]


def test_src_exclude_and_a_title_bars_section_suffix(tmp_path: Path) -> None:
    """vitest's docs: ``srcExclude: ['**/guide/examples/*', 'AGENTS.md']`` leaves pages
    out of its site (its examples, the guide for agents editing the site), and each
    config option's page is titled for the browser's title bar (``title: alias |
    Config``) above its own heading (``# alias``, ``# fsModuleCache <Version>5.0.0``)."""
    config = """\
import { defineConfig } from 'vitepress'
export default defineConfig({
  title: 'Vitest',
  srcExclude: [
    '**/guide/examples/*',
    'notes.md',
    'tutorial/**/description.md',
  ],
  themeConfig: {
    sidebar: {
      '/config/': [{ text: 'Config', items: [
        { text: 'alias', link: '/config/alias' },
        { text: 'fsModuleCache', link: '/config/fsmodulecache' },
        { text: 'Retry', link: '/config/retry' },
      ] }],
    },
  },
})
"""
    files = {
        "docs/.vitepress/config.ts": config,
        "docs/index.md": "# Vitest\n\nNext generation testing framework.\n",
        "docs/config/alias.md": "---\ntitle: alias | Config\n---\n\n# alias\n\nDefine aliases.\n",
        "docs/config/fsmodulecache.md": (
            "---\ntitle: fsModuleCache | Config\n---\n\n# fsModuleCache <Version>5.0.0</Version>\n\n"
            "Persist transformed modules on disk.\n"
        ),
        # a title of its own, not the heading's with a bar after it: kept whole
        "docs/config/retry.md": "---\ntitle: Retry | Flaky tests\n---\n\n# Retries\n\nRetry a test.\n",
        "docs/guide/examples/promise-done.md": "# Promise done\n\nAn example.\n",
        "docs/guide/index.md": "# Guide\n\nStart here.\n",
        "docs/notes.md": "# Remove UnoCSS\n\nMigration notes.\n",
        # vuejs/docs: left out of the pages, shown by the tutorial page's own code
        "docs/tutorial/step-1/description.md": "# Getting Started\n\nWelcome to the tutorial.\n",
        "docs/tutorial/Tutorial.vue": "<script setup>\nconst desc = data['description.md']\n</script>\n",
    }
    result, pkg = built_clean(tmp_path, files)
    titles = {d.meta.get("title") for d in pkg.documents.values()}
    assert {"alias", "fsModuleCache", "Retry | Flaky tests"} <= titles, titles
    assert not {"Promise done", "Remove UnoCSS"} & titles, titles
    assert "Getting Started" in titles, titles
    assert any(
        "2 files the site's docs/.vitepress/config.ts (srcExclude) leaves out" in n
        for n in result.notes
    ), result.notes


def test_markdown_file_inclusion_as_vitepress_expands_it(tmp_path: Path) -> None:
    """vitest's ``guide/cli.md`` shows its whole option table with
    ``<!--@include: ./cli-generated.md-->``; VitePress also takes a file's region
    (``#name``, between ``#region`` and ``#endregion`` markers) and its lines
    (``{2,3}``), and ``@/`` starts from the site's pages folder."""
    files = {
        "docs/.vitepress/config.ts": "export default { title: 'Tool' }\n",
        "docs/index.md": "# Tool\n\nA tool.\n",
        "docs/guide/cli.md": (
            "# Command Line Interface\n\nThe options.\n\n<!--@include: ./cli-generated.md-->\n\n"
            "## Usage\n\n<!-- @include: @/parts/usage.md#basic -->\n\n"
            "Lines: <!--@include: ../parts/lines.md{2,3}-->\n\n"
            "Missing: <!--@include: ./nowhere.md-->\n"
        ),
        "docs/guide/cli-generated.md": "---\nskip: yes\n---\n### root\n\n- **CLI:** `--root <path>`\n",
        "docs/parts/usage.md": (
            "Not this.\n<!-- #region basic -->\nRun `tool init` first.\n<!-- #endregion basic -->\n"
            "Nor this.\n"
        ),
        "docs/parts/lines.md": "one\ntwo\nthree\nfour\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert not result.failed, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    [cli] = [d for d in pkg.documents if d.endswith("cli.md")]
    body = (tmp_path / "kb" / cli).read_text("utf-8").split("\n---\n", 1)[1]
    assert "### root" in body and "`--root <path>`" in body and "skip: yes" not in body
    assert "Run `tool init` first." in body and "Not this" not in body and "Nor this" not in body
    assert "Lines: two\nthree" in body and "four" not in body
    # what the pages include is no page of its own
    assert not [d for d in pkg.documents if "cli-generated" in d or "parts/" in d], pkg.documents
    said = [n for n in result.notes if "nowhere.md" in n]
    assert said and said[0].startswith("docs/guide/cli.md:13: "), result.notes
