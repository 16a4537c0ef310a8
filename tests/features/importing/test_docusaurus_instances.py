"""A Docusaurus site publishing several sets of docs, as facebook/react-native-website
does: the preset's docs in ``docs/`` and three more docs plugin instances in
``website/architecture``, ``website/contributing`` and ``website/community``, each with
its sidebars (``require.resolve('./sidebarsCommunity')``) and its address
(``routeBasePath``), named by the navbar items linking to them (``docsPluginId``).

The three were left out as "outside the docs folder"; 21 links into ``/architecture/``
and ``/community/`` were broken, and so were a page's ``slug`` address and a category
doc's (``releases/releases.md``) links read from its folder's address."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc_docusaurus_instances import docs_instances
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)

CONFIG = """import type {Config} from '@docusaurus/types';

const commonDocsOptions = {showLastUpdateAuthor: false};

const config: Config = {
  title: 'React Native',
  url: 'https://reactnative.dev',
  baseUrl: '/',
  presets: [
    ['@docusaurus/preset-classic', {
      docs: {path: '../docs', sidebarPath: require.resolve('./sidebars'), ...commonDocsOptions},
    }],
  ],
  plugins: [
    'docusaurus-plugin-sass',
    ['content-docs', {
      id: 'architecture',
      path: 'architecture',
      routeBasePath: '/architecture',
      sidebarPath: require.resolve('./sidebarsArchitecture'),
      ...commonDocsOptions,
    }],
    ['@docusaurus/plugin-content-docs', {
      id: 'community', path: 'community', routeBasePath: '/community',
      sidebarPath: require.resolve('./sidebarsCommunity'),
    }],
  ],
  themeConfig: {
    navbar: {
      items: [
        {label: 'Guides', type: 'doc', docId: 'getting-started'},
        {label: 'Architecture', type: 'doc', docId: 'architecture-overview',
         docsPluginId: 'architecture'},
        {type: 'doc', docId: 'overview', label: 'Community', position: 'right',
         docsPluginId: 'community'},
      ],
    },
  },
};

export default config;
"""


def _page(doc_id: str, title: str, text: str, slug: str = "") -> str:
    slug_line = f"slug: {slug}\n" if slug else ""
    return f"---\nid: {doc_id}\ntitle: {title}\n{slug_line}---\n\n{text}\n"


def _site() -> dict[str, str]:
    return {
        "website/docusaurus.config.ts": CONFIG,
        "website/sidebars.ts": "export default {docs: {'The Basics': ['getting-started'], "
        "Releases: ['releases/releases', 'releases/versioning-policy']}};\n",
        "website/sidebarsArchitecture.ts": "export default {architecture: [{type: 'category', "
        "label: 'Architecture', items: ['architecture-overview', 'architecture-glossary']}]};\n",
        "website/sidebarsCommunity.ts": "export default {community: ['overview', 'support']};\n",
        "docs/getting-started.md": _page(
            "getting-started",
            "Get Started",
            "Start here, read [the architecture](/architecture/overview) and ask\n"
            "[the community](/community/support).",
        ),
        "docs/releases/releases.md": _page(
            "releases", "Releases Overview", "See [the policy](./releases/versioning-policy)."
        ),
        "docs/releases/versioning-policy.md": _page(
            "versioning-policy", "Versioning Policy", "How versions are numbered."
        ),
        "website/architecture/architecture-overview.md": _page(
            "architecture-overview",
            "Architecture Overview",
            "The renderer, explained; words in [the glossary](glossary).",
            slug="/overview",
        ),
        "website/architecture/architecture-glossary.md": _page(
            "architecture-glossary", "Glossary", "Terms of the renderer.", slug="/glossary"
        ),
        "website/community/overview.md": _page("overview", "Community Overview", "Who we are."),
        "website/community/support.md": _page("support", "Where to get help", "Ask here."),
        "website/src/pages/index.js": "export default function Home() { return null }\n",
    }


def test_the_configs_docs_instances_are_read() -> None:
    files = _site()
    found = docs_instances("website/docusaurus.config.ts", CONFIG, files)
    assert [(i.id, i.folder, i.route, i.sidebars, i.label) for i in found] == [
        (
            "architecture",
            "website/architecture",
            "architecture",
            "website/sidebarsArchitecture.ts",
            "Architecture",
        ),
        (
            "community",
            "website/community",
            "community",
            "website/sidebarsCommunity.ts",
            "Community",
        ),
    ]


def test_every_docs_instance_is_a_bundle_and_links_between_them_resolve(tmp_path: Path) -> None:
    result = build(write_sources(tmp_path / "src", _site()), tmp_path / "kb", now=NOW)
    assert result.errors == 0
    kb = tmp_path / "kb"
    pkg = Package(kb)
    pkg.load()
    assert any(p.startswith("architecture/") for p in pkg.documents), sorted(pkg.documents)
    assert any(p.startswith("community/") for p in pkg.documents)
    root = parse_index((kb / "index.md").read_text("utf-8"))
    titles = [e.title for e in root.entries]
    assert "Architecture" in titles and "Community" in titles, titles
    # one category named as its instance is the instance's bundle, not a bundle inside it
    assert not (kb / "architecture" / "architecture").exists()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_an_instance_beside_the_docs_at_the_root_keeps_the_docs_sections_at_the_root(
    tmp_path: Path,
) -> None:
    """pnpm.io: ``docs/`` and ``pnpr-docs/`` (``sidebarPath: path.join(__dirname,
    'sidebars-pnpr.json')``, navbar "Registry (pnpr)"): the registry's pages were left
    out; the docs' sidebar sections stay the root's bundles, the registry beside them."""
    config = (
        'const path = require(\'path\');\nconst config = {\n  "title": "pnpm",\n'
        "  presets: [['classic', {docs: {sidebarPath: './sidebars.json'}}]],\n"
        "  plugins: [['@docusaurus/plugin-content-docs', {\n    id: 'pnpr',\n"
        "    path: './pnpr-docs',\n    routeBasePath: 'pnpr',\n"
        "    sidebarPath: path.join(__dirname, 'sidebars-pnpr.json'),\n  }]],\n"
        "  themeConfig: {navbar: {items: [{type: 'docSidebar', docsPluginId: 'pnpr',\n"
        "    sidebarId: 'pnpr', label: 'Registry (pnpr)'}]}},\n};\nexport default config;\n"
    )
    sidebars = (
        '{"docs": {"Introduction": ["motivation", "installation", "comparison"], '
        '"Usage": ["cli", "filtering", "workspaces"]}}'
    )
    files = {
        "docusaurus.config.js": config,
        "sidebars.json": sidebars,
        "sidebars-pnpr.json": '{"pnpr": ["introduction", "quick-start", "storage"]}',
        **{
            f"docs/{p}.md": _page(p, p.title(), f"All about {p}.")
            for p in ("motivation", "installation", "comparison", "cli", "filtering", "workspaces")
        },
        **{
            f"pnpr-docs/{p}.md": _page(p, p.title(), f"The registry's {p}.")
            for p in ("introduction", "quick-start", "storage")
        },
    }
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    text = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert "## Introduction\n\n* [Motivation](motivation.md)" in text, text
    assert "## Usage\n" in text and "* [Registry (pnpr)](" in text
    assert not (tmp_path / "kb" / "docs").exists()  # the docs are the root, not a bundle
