"""VuePress sites (1 and 2) as their repositories keep them, and a VitePress 0.x config
written ``module.exports = {``.

vuepress/docs (VuePress 2): ``docs/.vuepress/config.ts`` imports its navbar and its
sidebar from ``./configs/index.js``, which re-exports ``./sidebar/en.ts`` (``export const
sidebarEn = {'/guide/': [...]}``); its home page is a ``README.md`` of front matter alone
(``home: true``, ``features``); its images are in ``docs/.vuepress/public/``. vuejs/vuepress
(VuePress 1): ``module.exports`` or ``defineConfig(ctx => ({...}))``, ``themeConfig``'s
sidebar of page paths relative to their key, the site in ``packages/docs/docs/``.
vuejs/vue-cli: ``docs/.vitepress/config.js``, ``module.exports = {``, its sidebar per
language (``themeConfig.locales['/']``), groups of ``children``.

Built before, none of these sidebars was read (bundles in alphabetical order, without
the sidebar's groups), ``/images/hero.png`` was a broken link, the home page was
dropped (its ``README.md`` taken for the repository's), and vue-cli's ``manifest.json``
was a document.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.home_page import home_body
from kas_tui.features.importing.toc import find_toc, read_toc
from kas_tui.features.importing.toc_vuepress import vuepress_about
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
PNG = b"\x89PNG\r\n\x1a\nfake image bytes"

V2_CONFIG = """\
import { defaultTheme } from '@vuepress/theme-default'
import { defineUserConfig } from 'vuepress'
import { head, navbarEn, sidebarEn, sidebarZh } from './configs/index.js'

export default defineUserConfig({
  base: '/',
  head,
  locales: {
    '/': { lang: 'en-US', title: 'VuePress', description: 'Vue-powered Static Site Generator' },
    '/zh/': { lang: 'zh-CN', title: 'VuePress', description: 'Vue 驱动的静态网站生成器' },
  },
  theme: defaultTheme({
    logo: '/images/hero.png',
    locales: {
      '/': {
        navbar: navbarEn,
        sidebar: sidebarEn,
      },
      '/zh/': {
        sidebar: sidebarZh,
      },
    },
  }),
})
"""
V2_SIDEBAR = """\
import type { SidebarOptions } from '@vuepress/theme-default'

export const sidebarEn: SidebarOptions = {
  '/guide/': [
    {
      text: 'Guide',
      children: ['/guide/introduction.md', '/guide/getting-started.md', '/guide/assets.md'],
    },
  ],
  '/advanced/': [
    {
      text: 'Advanced',
      children: ['/advanced/plugin.md', '/advanced/architecture.md'],
    },
    {
      text: 'Cookbook',
      children: ['/advanced/cookbook/README.md', '/advanced/cookbook/usage.md'],
    },
  ],
}
"""
V2_NAVBAR = """\
import { VERSION } from '../meta.js'

export const navbarEn = [
  { text: 'Guide', children: ['/guide/introduction.md', '/guide/getting-started.md'] },
  {
    text: 'Learn More',
    children: [
      { text: 'Advanced', children: ['/advanced/architecture.md', { text: 'Cookbook', link: '/advanced/cookbook/' }] },
      { text: 'Resources', children: [{ text: 'Ecosystem', link: 'https://ecosystem.vuejs.press/' }] },
    ],
  },
  { text: `v${VERSION}`, children: [{ text: 'Changelog', link: 'https://github.com/vuepress/core' }] },
]
"""
HOME = """\
---
home: true
title: Home
heroImage: /images/hero.png
actions:
  - text: Get Started
    link: /guide/getting-started.html
    type: primary
features:
  - title: Simplicity First
    details: Minimal setup with markdown-centered project structure helps you focus on writing.
  - title: Vue-Powered
    details: Enjoy the dev experience of Vue, use Vue components in markdown.
footer: MIT Licensed
---
"""


def page(title: str, body: str = "") -> str:
    return f"# {title}\n\n{body or title + ' explains one part of the generator.'}\n"


def vuepress_docs() -> dict[str, str | bytes]:
    """vuepress/docs, the VuePress 2 site's repository."""
    return {
        "docs/.vuepress/config.ts": V2_CONFIG,
        "docs/.vuepress/configs/index.ts": "export * from './head.js'\n"
        "export * from './navbar/index.js'\nexport * from './sidebar/index.js'\n",
        "docs/.vuepress/configs/head.ts": "export const head = [['link', { rel: 'icon' }]]\n",
        "docs/.vuepress/configs/meta.ts": "export const VERSION = '2.0.0'\n",
        "docs/.vuepress/configs/navbar/index.ts": "export * from './en.js'\n",
        "docs/.vuepress/configs/navbar/en.ts": V2_NAVBAR,
        "docs/.vuepress/configs/sidebar/index.ts": "export * from './en.js'\n"
        "export * from './zh.js'\n",
        "docs/.vuepress/configs/sidebar/en.ts": V2_SIDEBAR,
        "docs/.vuepress/configs/sidebar/zh.ts": "export const sidebarZh = {\n"
        "  '/zh/guide/': [{ text: '指南', children: ['/zh/guide/introduction.md'] }],\n}\n",
        "docs/.vuepress/components/NpmBadge.vue": "<template><a>npm</a></template>\n",
        "docs/.vuepress/public/images/hero.png": PNG,
        "docs/README.md": HOME,
        "docs/guide/introduction.md": page("Introduction", "VuePress is a static site generator."),
        "docs/guide/getting-started.md": page(
            "Getting Started", "Read the [introduction](./introduction.md) first."
        ),
        "docs/guide/assets.md": page(
            "Assets", "Public files are served from the root: ![VuePress Logo](/images/hero.png)"
        ),
        "docs/advanced/architecture.md": page("Architecture"),
        "docs/advanced/plugin.md": page("Writing a Plugin", "See [the cookbook](./cookbook/)."),
        "docs/advanced/cookbook/README.md": page("Introduction to the cookbook"),
        "docs/advanced/cookbook/usage.md": page("Usage of Client Config"),
        "docs/zh/README.md": HOME,
        "docs/zh/guide/introduction.md": page("介绍", "VuePress 是一个静态网站生成器。"),
        "README.md": page("VuePress docs", "The documentation of VuePress."),
        "CONTRIBUTING.md": page("Contributing"),
        "package.json": '{"name": "docs"}',
    }


def _built(tmp_path: Path, files: dict[str, str | bytes], folder: str = "") -> Package:
    src = write_sources(tmp_path / "src", files)
    result = build(src / folder if folder else src, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    return pkg


def _broken(pkg: Package) -> list[str]:
    return [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def _index(pkg: Package, folder: str) -> tuple[list[str], list[str]]:
    """A bundle's index: its section headings, and its entries' targets in order."""
    index = parse_index((pkg.root / folder / "index.md").read_text("utf-8"))
    return [s.title for s in index.sections if s.level == 2], [e.target for e in index.entries]


def test_a_vuepress_2_site_reads_its_imported_sidebar(tmp_path: Path) -> None:
    pkg = _built(tmp_path, vuepress_docs())
    assert sorted(pkg.documents) == [
        "advanced/architecture.md",
        "advanced/cookbook/readme.md",
        "advanced/cookbook/usage.md",
        "advanced/plugin.md",
        "guide/assets.md",
        "guide/getting-started.md",
        "guide/introduction.md",
        "readme.md",
    ]
    # the sidebar's order and groups, not the folders' names
    assert _index(pkg, "guide")[1] == ["introduction.md", "getting-started.md", "assets.md"]
    assert _index(pkg, "advanced") == (["Advanced"], ["cookbook/", "plugin.md", "architecture.md"])
    root = (pkg.root / "index.md").read_text("utf-8")
    assert root.splitlines()[3] == "# VuePress"
    assert "\n## Guide\n" in root  # the sidebar's first section, listed in the root
    # .vuepress/public/ is served from the site's root: /images/hero.png is its file
    assert _broken(pkg) == []
    assert (pkg.root / "assets" / "vuepress" / "public" / "images" / "hero.png").is_file()


def test_a_home_page_of_front_matter_alone_is_the_packages_home(tmp_path: Path) -> None:
    pkg = _built(tmp_path, vuepress_docs(), "docs")
    home = pkg.documents["readme.md"]
    assert home.title == "Home"
    assert home.description.startswith("Minimal setup with markdown-centered project structure")
    body = (pkg.root / "readme.md").read_text("utf-8").split("\n---\n", 1)[1]
    assert "## Simplicity First" in body and "## Vue-Powered" in body
    assert "[Get Started](/guide/getting-started.md)" in body
    root = (pkg.root / "index.md").read_text("utf-8")
    assert "(readme.md)" in root.split("\n## ")[0]  # listed first, at the top


def test_the_home_body_a_theme_draws_from_front_matter() -> None:
    v1 = {"home": True, "heroText": "VuePress", "tagline": "Vue-powered", "actionText": "Go"}
    v1 |= {"actionLink": "/guide/"}
    assert home_body(v1, "\n") == "# VuePress\n\nVue-powered\n\n- [Go](/guide/)\n"
    vitepress = {
        "layout": "home",
        "hero": {"name": "Vite", "text": "Next Generation Frontend Tooling", "tagline": "Fast"},
        "features": [{"title": "Instant Server Start", "details": "On demand file serving"}],
    }
    component = "<script setup>\nimport X from './x.vue'\n</script>\n\n<X />\n"
    assert home_body(vitepress, component) == (
        "# Vite\n\nNext Generation Frontend Tooling\n\nFast\n\n## Instant Server Start\n\n"
        "On demand file serving\n\n<script setup>\nimport X from './x.vue'\n</script>\n\n<X />\n"
    )
    assert home_body(vitepress, "Words of its own.\n") is None  # it has prose: as written
    assert home_body({"home": True, "actionText": "Go", "actionLink": "/"}, "") is None
    assert home_body({"title": "Not a home"}, "") is None


V1_CONFIG = """\
module.exports = {
  title: 'Hello VuePress',
  description: 'Just playing around',
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/' },
      { text: 'Learn More', items: [{ text: 'API', items: [{ text: 'CLI', link: '/api/cli.html' }] }] },
      { text: 'External', link: 'https://google.com' },
    ],
    sidebar: {
      '/api/': ['cli', 'node'],
      '/guide/': [
        '',
        'getting-started',
        ['basic-config', 'Configuration'],
        { title: 'Advanced', collapsable: false, children: ['frontmatter', '../api/cli'] },
      ],
      '/': ['', 'contact'],
    },
  },
}
"""


def vuepress_1() -> dict[str, str | bytes]:
    return {
        ".vuepress/config.js": V1_CONFIG,
        ".vuepress/public/hero.png": PNG,
        "README.md": "---\nhome: true\nheroText: Hello VuePress\ntagline: Just playing around\n---\n",
        "contact.md": page("Contact", "Write to us. ![logo](/hero.png)"),
        "guide/README.md": page("Introduction", "Start with [the config](basic-config.md)."),
        "guide/getting-started.md": page("Getting Started", "See [the CLI](/api/cli.html)."),
        "guide/basic-config.md": page("Basic Config", "Back to [the guide](./README.md)."),
        "guide/frontmatter.md": page("Frontmatter", "See [home](../README.md) and [api](/api/)."),
        "api/cli.md": page("CLI"),
        "api/node.md": page("Node"),
        "api/README.md": page("API"),
    }


def test_a_vuepress_1_sidebar_of_paths_relative_to_its_keys(tmp_path: Path) -> None:
    files = vuepress_1()
    toc = read_toc(".vuepress/config.js", files.get, set(files))
    assert toc is not None and toc.kind == "vuepress" and toc.problems == []

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    assert shape(toc.roots) == [
        (None, "README.md", []),  # '/', the site's root pages, first
        (None, "contact.md", []),
        (  # then the keys in the nav's order (their own say which matches first)
            "Guide",
            None,
            [
                (None, "guide/README.md", []),
                (None, "guide/getting-started.md", []),
                ("Configuration", "guide/basic-config.md", []),
                ("Advanced", None, [(None, "guide/frontmatter.md", []), (None, "api/cli.md", [])]),
            ],
        ),
        ("API", None, [(None, "api/cli.md", []), (None, "api/node.md", [])]),  # the nav's group
    ]
    assert vuepress_about(V1_CONFIG) == ("Hello VuePress", "Just playing around")
    pkg = _built(tmp_path, files)
    assert _broken(pkg) == []  # README.md is its folder: /api/, ../README.md, ./README.md
    assert pkg.documents["readme.md"].title == "Hello VuePress"


def test_theme_options_kept_in_files_of_the_site() -> None:
    # themeConfig: require('./theme'), its locales a const, their sidebar required from a
    # JSON file, their nav a const: each followed, read as text
    files = {
        "docs/.vuepress/config.js": "module.exports = {\n  title: 'Kit',\n"
        "  themeConfig: require('./theme'),\n}\n",
        "docs/.vuepress/theme.js": "const sidebar = require('./sidebar.json')\n"
        "const nav = [{ text: 'Manual', link: '/manual/' }]\n"
        "const locales = { '/': { nav, sidebar } }\nmodule.exports = { locales }\n",
        "docs/.vuepress/sidebar.json": '{"/manual/": ["", "setup"]}',
        "docs/manual/README.md": page("Manual"),
        "docs/manual/setup.md": page("Setup"),
    }
    toc = find_toc(set(files), files.get)
    assert toc is not None and toc.problems == [] and toc.docs_dir == "docs"
    assert [(n.title, [c.path for c in n.children]) for n in toc.roots] == [
        ("Manual", ["docs/manual/README.md", "docs/manual/setup.md"])
    ]
    assert toc.read_files() >= {"docs/.vuepress/theme.js", "docs/.vuepress/sidebar.json"}


def test_a_sidebar_built_by_code_in_an_imported_file_is_said(tmp_path: Path) -> None:
    # vuejs/vuepress' own docs: defineConfig(ctx => ({...})), the sidebar imported through
    # ./config/index (export * from './sidebar/en'), each key's list a function's result
    files = {
        ".vuepress/config.ts": "import { defineConfig } from 'vuepress/config'\n"
        "import { Sidebar4EN } from './config/index'\n"
        "export default defineConfig(ctx => ({\n  themeConfig: {\n    locales: {\n"
        "      '/': { sidebar: Sidebar4EN },\n    },\n  },\n}))\n",
        ".vuepress/config/index.ts": "export * from './nav/en'\nexport * from './sidebar/en'\n",
        ".vuepress/config/nav/en.ts": "export const NavItems4EN = []\n",
        ".vuepress/config/sidebar/en.ts": "import { getGuideSidebar } from './shared'\n\n"
        "export const Sidebar4EN = {\n  '/guide/': getGuideSidebar('Guide', 'Advanced'),\n}\n",
        "guide/README.md": page("Introduction"),
    }
    toc = read_toc(".vuepress/config.ts", files.get, set(files))
    assert toc is not None and toc.roots == [] and toc.docs_dir == ""
    assert toc.problems == [
        ".vuepress/config/sidebar/en.ts:3: its sidebar is built by code (getGuideSidebar()): "
        "not read; the folders are the tree"
    ]
    # a sidebar a package gives, or one kept outside the source: said, never followed
    files[".vuepress/config.ts"] = (
        "import sidebar from '../../sidebar.js'\nmodule.exports = {\n"
        "  themeConfig: {\n    sidebar,\n  },\n}\n"
    )
    toc = read_toc(".vuepress/config.ts", files.get, set(files))
    assert toc is not None and toc.problems == [
        ".vuepress/config.ts:4: its sidebar is imported from ../../sidebar.js, no file of the "
        "source: not read; the folders are the tree"
    ]
    # items no page is served at, or of no shape VuePress reads: each said by its line
    files[".vuepress/config.ts"] = (
        "module.exports = {\n  themeConfig: {\n    sidebar: [\n      '/guide/',\n"
        "      'guide/missing',\n      42,\n    ],\n  },\n}\n"
    )
    toc = read_toc(".vuepress/config.ts", files.get, set(files))
    assert toc is not None and [n.path for n in toc.roots] == ["guide/README.md"]
    assert toc.problems == [
        ".vuepress/config.ts:5: 'guide/missing' names /guide/missing, which no page of the "
        "source is served at; fix the path or add the page",
        ".vuepress/config.ts:6: 42 is no sidebar item kas-tui reads (a page's path, [path, "
        "title], or {text, link, children}): skipped",
    ]
    files[".vuepress/config.ts"] = "module.exports = makeConfig({ title: 'x' })\n"
    toc = read_toc(".vuepress/config.ts", files.get, set(files))
    assert toc is not None and toc.problems == [
        ".vuepress/config.ts:1: a VuePress config whose object kas-tui cannot find (no plain "
        "object after module.exports =, export default or defineUserConfig(): built by code?): "
        "its sidebar was not read; the folders are the tree"
    ]


def test_a_vuepress_site_deep_in_its_repository(tmp_path: Path) -> None:
    # vuejs/vuepress: the site in packages/docs/docs/, test fixtures with configs of their
    # own beside the packages' code
    files: dict[str, str | bytes] = {
        f"packages/docs/docs/{rel}": text for rel, text in vuepress_1().items()
    }
    files |= {
        "packages/@vuepress/core/__tests__/fixtures/docs-config/.vuepress/config.js": (
            "module.exports = { title: 'Fixture' }\n"
        ),
        "packages/@vuepress/core/__tests__/fixtures/docs-config/README.md": page("Fixture"),
        "packages/@vuepress/core/lib/index.js": "module.exports = {}\n",
        "packages/@vuepress/core/README.md": page("VuePress core"),
        "CHANGELOG.md": page("Changelog"),
        "README.md": page("VuePress"),
        "lerna.json": "{}",
    }
    # a home page with words of its own, no heroText: named by the site's title
    files["packages/docs/docs/README.md"] = (
        "---\nhome: true\nactionText: Go\nactionLink: /guide/\n---\n\nA static site generator.\n"
    )
    pkg = _built(tmp_path, files)
    assert pkg.documents["readme.md"].title == "Hello VuePress"
    # /hero.png is .vuepress/public/hero.png, three folders down
    assert _broken(pkg) == []
    assert sorted(pkg.documents) == [
        "api/cli.md",
        "api/node.md",
        "api/readme.md",
        "contact.md",
        "guide/basic-config.md",
        "guide/frontmatter.md",
        "guide/getting-started.md",
        "guide/readme.md",
        "readme.md",
    ]


VUE_CLI_CONFIG = """\
const fs = require('fs')

module.exports = {
  locales: {
    '/': { lang: 'en-US', title: 'Vue CLI', description: 'Standard Tooling for Vue.js Development' },
    '/zh/': { lang: 'zh-CN', title: 'Vue CLI' },
  },
  themeConfig: {
    locales: {
      '/': {
        nav: [
          { text: 'Guide', link: '/guide/' },
          { text: 'Plugins', items: [{ text: 'Core Plugins', link: '/core-plugins/' }] },
        ],
        sidebar: {
          '/guide/': [
            { text: 'Overview', link: '/guide/', collapsable: true },
            { text: 'Basics', collapsable: false, children: [
              { text: 'Creating a Project', link: '/guide/creating-a-project' },
              { text: 'CLI Service', link: '/guide/cli-service' },
            ] },
            { text: 'Development', collapsable: false, children: [
              { text: 'Deployment', link: '/guide/deployment' },
            ] },
          ],
        },
      },
      '/zh/': {
        sidebar: { '/zh/guide/': [{ text: '介绍', link: '/zh/guide/' }] },
      },
    },
  },
}
"""


def test_a_vitepress_0_config_written_module_exports(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "docs/.vitepress/config.js": VUE_CLI_CONFIG,
        "docs/index.md": "---\nhome: true\nactionText: Get Started\nactionLink: /guide/\n---\n\n"
        "## Getting Started\n\nInstall the CLI with `npm install -g @vue/cli`.\n",
        "docs/guide/index.md": page("Overview"),
        "docs/guide/creating-a-project.md": page("Creating a Project"),
        "docs/guide/cli-service.md": page("CLI Service", "![ui](/ui-new-project.png)"),
        "docs/guide/deployment.md": page("Deployment"),
        "docs/public/ui-new-project.png": PNG,
        "docs/public/manifest.json": '{"name": "Vue CLI", "short_name": "Vue CLI"}',
        "docs/zh/guide/index.md": page("介绍"),
        "packages/@vue/cli/lib/options.json": '{"type": "object", "properties": {}}',
        "packages/@vue/cli/README.md": page("@vue/cli"),
        "package.json": "{}",
    }
    pkg = _built(tmp_path, files)
    assert sorted(pkg.documents) == [
        "guide/cli-service.md",
        "guide/creating-a-project.md",
        "guide/deployment.md",
        "guide/index-page.md",
        "index-page.md",
    ]
    assert _index(pkg, "guide") == (
        ["Basics", "Development"],
        ["index-page.md", "creating-a-project.md", "cli-service.md", "deployment.md"],
    )
    assert (pkg.root / "index.md").read_text("utf-8").splitlines()[3] == "# Vue CLI"
    assert _broken(pkg) == []
    # a config that is no object kas-tui reads: said, the folders the tree
    files = {"docs/.vitepress/config.js": "export default async () => ({ title: 'x' })\n"}
    toc = find_toc(set(files) | {"docs/guide/a.md"}, files.get)
    assert toc is not None and toc.roots == []
    assert toc.problems == [
        "docs/.vitepress/config.js:1: a VitePress config whose object kas-tui cannot find (no "
        "plain object after export default, module.exports = or defineConfig(): built by "
        "code?): its sidebar was not read; the folders are the tree"
    ]


def test_pages_a_theme_draws_from_data_or_code_are_no_pages(tmp_path: Path) -> None:
    """vite's home (``layout: home``, then ``<Home />``), Hugo's ``layout: search``,
    Hexo's ``layout: plugins`` were documents "Document imported from index.md."."""
    from kas_tui.features.importing.home_page import theme_drawn

    vite = (
        "---\ntitle: Vite\ntitleTemplate: Next Generation Frontend Tooling\nlayout: home\n---\n"
        "<script setup>\nimport Home from './.vitepress/theme/landing/Layout.vue'\n</script>\n"
        "<Home />\n"
    )
    assert theme_drawn(vite) == "home"
    assert theme_drawn("---\ntitle: Search Results\nlayout: search\n---\n\n") == "search"
    # a home the theme writes out of its front matter, a page with words: pages
    hero = "---\nlayout: home\nhero:\n  name: Pinia\n  tagline: The store for Vue\n---\n"
    assert theme_drawn(hero) is None
    assert theme_drawn("---\nlayout: page\ntitle: About\n---\n\nWe build tools.\n") is None
    assert theme_drawn("---\nlayout: search\ndescription: Search the docs.\n---\n") is None
    source = write_sources(
        tmp_path / "src",
        {
            "index.md": vite,
            "search.md": "---\ntitle: Search Results\nlayout: search\n---\n",
            "guide/start.md": "# Getting Started\n\nVite is a build tool for the web.\n",
        },
    )
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0 and len(result.created) == 1
    assert any("2 pages the site's theme draws" in n for n in result.notes), result.notes


def test_a_sections_own_page_drawn_by_its_theme_still_names_its_section(tmp_path: Path) -> None:
    """grpc.io's ``platforms/android/java/_index.md`` (``layout: prog_lang_home``, links
    in its front matter) names the section "Android Java": it stays."""
    source = write_sources(
        tmp_path / "src",
        {
            "config.toml": 'baseURL = "https://grpc.io"\ntitle = "gRPC"\n',
            "content/en/docs/android/_index.md": "---\ntitle: Android Java\nlayout: prog_lang_home\n---\n",
            "content/en/docs/android/basics.md": "---\ntitle: Basics\n---\n\nDefine a service in a proto file.\n",
            "content/en/docs/android/quickstart.md": "---\ntitle: Quick start\n---\n\nRun the example app.\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    assert "Android Java" in (out / "index.md").read_text("utf-8")


def test_a_listing_page_alone_in_its_folder_is_no_section(tmp_path: Path) -> None:
    """hexojs/site's ``plugins/index.md`` (``layout: plugins``, drawn from ``_data``) is
    alone in its folder: a page the theme draws, no section to name."""
    source = write_sources(
        tmp_path / "src",
        {
            "plugins/index.md": "---\nlayout: plugins\ntitle: Plugins\ndata: plugins\n---\n",
            "docs/setup.md": "# Setup\n\nInstall Hexo with npm.\n",
            "docs/writing.md": "# Writing\n\nCreate a post with hexo new.\n",
        },
    )
    result = build(source, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0 and len(result.created) == 2
