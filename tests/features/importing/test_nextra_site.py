"""A Nextra site as its repositories keep it: Nextra 2's ``pages/`` with a ``_meta.json``
in each folder (0xSplits' docs: separators heading the sidebar's parts, ``sdk.mdx``
beside ``sdk/``, a link off the site, a hidden page) and a ``theme.config.tsx`` and a
``next.config.js`` around it; Nextra 4's ``app/`` (authzed/docs: each folder's
``page.mdx``, ``_meta.ts`` objects ``satisfies MetaRecord``, navbar ``type: 'page'``
items, the site's name in the root layout's ``metadata``); its ``content/`` with a
folder per language; and a ``_meta.global.tsx`` whose titles are components and whose
folders' items are ``const``\\s (Nextra's own docs).

Built before this reader, 0xSplits' docs were one "Pages" bundle beside
``package.json``, ``pnpm-lock.yaml`` and ``tsconfig.json`` as documents, 92 of their
site-absolute links broken; authzed's root was "App" > one bundle per page
(``spicedb/ops/eks/page.md`` alone in ``eks/``), 163 links broken."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc, read_toc
from kas_tui.features.importing.toc_nextra import next_app_about
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

NEXT_CONFIG = """\
const withNextra = require('nextra')({
  theme: 'nextra-theme-docs',
  themeConfig: './theme.config.tsx',
})

module.exports = withNextra({
  async redirects() {
    return [
      { source: '/old-split', destination: '/core/split', permanent: true },
      { source: '/docs/:path*', destination: '/:path*', permanent: true },
    ]
  },
})
"""
ROOT_META = json.dumps(
    {
        "index": "Overview",
        "flow": "Flow of funds",
        "-- Contracts": {"type": "separator", "title": "Contracts"},
        "core": "Core contracts",
        "-- Dev tools": {"type": "separator", "title": "Dev tools"},
        "sdk": {"title": "SDK"},
        "react": "React SDK",
        "github": {"title": "GitHub", "href": "https://github.com/acme"},
        "changelog": {"title": "Changelog", "display": "hidden"},
        "faq": "FAQ",
    },
    indent=2,
)


def page(title: str, body: str = "") -> str:
    return f"# {title}\n\n{body or title + ' explains one part of the protocol, step by step.'}\n"


def splits_like() -> dict[str, str | bytes]:
    return {
        "next.config.js": NEXT_CONFIG,
        "theme.config.tsx": "export default { project: { link: 'https://github.com/acme' } }\n",
        "package.json": '{"name": "acme-docs", "dependencies": {"nextra": "^2.13.0"}}',
        "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
        "tsconfig.json": '{"compilerOptions": {"strict": true}}',
        "README.md": "# Acme docs\n\nRun `pnpm dev`.\n",
        "public/logo.svg": "<svg/>",
        "pages/_meta.json": ROOT_META,
        "pages/_app.mdx": "import 'nextra-theme-docs/style.css'\n",
        "pages/index.mdx": page(
            "Acme Protocol",
            "Funds move as [the flow](/flow) says; [split](/old-split) them, or use the "
            "[client](/sdk/client#install). ![logo](/logo.svg)",
        ),
        "pages/flow.mdx": page("Flow of funds", "See [waterfall](./core/waterfall)."),
        "pages/404.mdx": page("Page not found"),
        "pages/core.mdx": page("Core contracts", "The building blocks."),
        "pages/core/_meta.json": json.dumps({"split": "Split", "waterfall": "Waterfall"}),
        "pages/core/split.mdx": page("Split", "Back to [the flow](../flow)."),
        "pages/core/waterfall.mdx": page("Waterfall"),
        "pages/core/vesting.mdx": page("Vesting"),
        "pages/sdk/_meta.json": json.dumps({"overview": "Overview", "client": "Client"}),
        "pages/sdk/overview.mdx": page("SDK overview"),
        "pages/sdk/client.mdx": page("SDK client", "## Install [#install]\n\nRun it."),
        "pages/react.mdx": page("React SDK"),
        "pages/changelog.mdx": page("Changelog"),
    }


def test_a_nextra_pages_site_builds_as_its_sidebar(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "acme-docs", splits_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    # the repository's configs and lockfile, the _meta files and the 404 page are no pages
    assert sorted(pkg.documents) == [
        "changelog.md",
        "core/core.md",
        "core/split.md",
        "core/vesting.md",
        "core/waterfall.md",
        "flow.md",
        "index-page.md",
        "react.md",
        "sdk/client.md",
        "sdk/overview.md",
    ]
    text = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert text.splitlines()[3] == "# Acme docs"
    # the sidebar's order, its separators heading its parts; the hidden page after them
    assert [(e.section, e.title) for e in parse_index(text).entries][:6] == [
        ("Acme docs", "Acme Protocol"),
        ("Acme docs", "Flow of funds"),
        ("Contracts", "Core contracts"),
        ("Dev tools", "SDK"),
        ("Dev tools", "React SDK"),
        ("Other pages", "Changelog"),
    ]
    core = parse_index((tmp_path / "kb" / "core" / "index.md").read_text("utf-8"))
    # the folder's page first, then its _meta's order, then the pages it does not name
    assert [e.target for e in core.entries] == ["core.md", "split.md", "waterfall.md", "vesting.md"]
    notes = "\n".join(result.notes)
    line = next(n for n, text in enumerate(ROOT_META.splitlines(), 1) if '"faq"' in text)
    assert (
        f"pages/_meta.json:{line}: its _meta names 'faq', which is no page or folder in "
        "pages/; fix the key or add the page"
    ) in notes
    # links as the site serves them, through its next.config redirects
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    home = (tmp_path / "kb" / "index-page.md").read_text("utf-8")
    assert "(/core/split.md)" in home and "(/sdk/client.md#install)" in home
    assert "(core/waterfall.md)" in (tmp_path / "kb" / "flow.md").read_text("utf-8")
    # a heading's own id is no words of its title
    assert "[#install]" not in (tmp_path / "kb" / "sdk" / "index.md").read_text("utf-8")


def test_the_sidebar_tree_of_a_pages_site() -> None:
    files = {**splits_like(), "pages/zero-fee.mdx": page("Zero fee")}
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "nextra" and toc.docs_dir == "pages"

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    assert shape(toc.roots) == [
        ("Overview", "pages/index.mdx", []),
        ("Flow of funds", "pages/flow.mdx", []),
        (
            "Contracts",
            None,
            [
                (
                    "Core contracts",
                    None,
                    [
                        (None, "pages/core.mdx", []),
                        ("Split", "pages/core/split.mdx", []),
                        ("Waterfall", "pages/core/waterfall.mdx", []),
                        (None, "pages/core/vesting.mdx", []),
                    ],
                )
            ],
        ),
        (
            "Dev tools",
            None,
            [
                (
                    "SDK",
                    None,
                    [
                        ("Overview", "pages/sdk/overview.mdx", []),
                        ("Client", "pages/sdk/client.mdx", []),
                    ],
                ),
                ("React SDK", "pages/react.mdx", []),
                # a page no _meta names follows the named ones (Nextra's order)
                (None, "pages/zero-fee.mdx", []),
            ],
        ),
    ]
    assert toc.folder_titles() == {"pages/core": "Core contracts", "pages/sdk": "SDK"}
    # a folder's own title comes from its parent's _meta; a page's titles it when it
    # has none of its own
    assert toc.labels()["pages/flow.mdx"] == "Flow of funds"


APP_ROOT_META = """\
import type { MetaRecord } from "nextra";

export default {
  index: {
    title: "Documentation",
    display: "hidden",
  },
  spicedb: {
    title: "SpiceDB Documentation",
    type: "page",
  },
  mcp: {
    title: "MCP",
    type: "page",
  },
} satisfies MetaRecord;
"""
LAYOUT = """\
import type { Metadata } from "next";

export const generateMetadata = async (): Promise<Metadata> => {
  const { description } = await Promise.resolve({ description: "x" });
  return {
    metadataBase: new URL("https://acme.example/docs"),
    title: {
      default: "Acme Docs",
      template: "%s - Acme Docs",
    },
    description: "Welcome to the SpiceDB docs of Acme.",
  };
};
"""


def authzed_like() -> dict[str, str | bytes]:
    return {
        "next.config.mjs": "import nextra from 'nextra'\n\nconst withNextra = nextra({ latex: true })\n"
        "export default withNextra({ crossOrigin: 'anonymous' })\n",
        "app/layout.tsx": LAYOUT,
        "app/_meta.ts": APP_ROOT_META,
        "app/page.mdx": page("Acme Docs", "Choose [SpiceDB](/spicedb) or [MCP](/mcp)."),
        "app/_components/banner.tsx": "export const Banner = () => null\n",
        # a key's colon without a space after it, as JavaScript allows
        "app/spicedb/_meta.ts": 'export default {\n  "getting-started":"Getting Started",\n'
        "  concepts:'Concepts',\n  links: 'Links',\n};\n",
        "app/spicedb/getting-started/page.mdx": page(
            "Getting started", "Then [install](./getting-started/install) it."
        ),
        "app/spicedb/getting-started/_meta.ts": "export default { install: 'Install' }\n",
        "app/spicedb/getting-started/install/page.mdx": page(
            "Installing SpiceDB", "Read about [schemas](/spicedb/concepts/schema) first."
        ),
        "app/spicedb/concepts/schema/page.mdx": page(
            "Schema language", "See [caveats](./caveats)."
        ),
        "app/spicedb/concepts/caveats/page.mdx": page("Caveats"),
        "app/spicedb/concepts/caveats/old.mdx": page("Caveats (before 1.2)"),
        "app/spicedb/concepts/caveats/_diagram.tsx": "export const Diagram = () => null\n",
        "app/spicedb/links/_meta.ts": "export default {\n  blog: { title: 'Blog', href: "
        "'https://acme.example/blog' },\n};\n",
        "app/spicedb/api/[name]/page.tsx": "export default function Page() { return null }\n",
        "app/mcp/_meta.ts": "export default {\n  index: { title: 'Model Context Protocol' },\n};\n",
        "app/mcp/page.mdx": page("MCP"),
        "app/mcp/server/page.mdx": page("MCP server", "Back to [the docs](/)."),
        "README.md": "# Acme docs\n",
        "package.json": "{}",
    }


def test_a_nextra_app_folder_builds_each_folders_page_as_a_page(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", authzed_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    # app/spicedb/concepts/caveats/page.mdx is the page caveats of concepts/, not a
    # bundle of one page called "page"
    assert sorted(pkg.documents) == [
        "index-page.md",
        "mcp/index-page.md",
        "mcp/server.md",
        "spicedb/concepts/caveats.md",
        "spicedb/concepts/schema.md",
        "spicedb/getting-started/index-page.md",
        "spicedb/getting-started/install.md",
    ]
    kb = tmp_path / "kb"
    assert (kb / "index.md").read_text("utf-8").splitlines()[3] == "# Acme Docs"
    root = parse_index((kb / "index.md").read_text("utf-8"))
    assert [e.title for e in root.entries][:3] == ["Acme Docs", "SpiceDB Documentation", "MCP"]
    spicedb = parse_index((kb / "spicedb" / "index.md").read_text("utf-8"))
    assert [e.title for e in spicedb.entries] == ["Getting Started", "Concepts"]
    # links written against each page's served path (/spicedb/getting-started)
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    start = (kb / "spicedb" / "getting-started" / "index-page.md").read_text("utf-8")
    assert "(install.md)" in start
    assert "(caveats.md)" in (kb / "spicedb" / "concepts" / "schema.md").read_text("utf-8")
    skill = (kb / "SKILL.md").read_text("utf-8")
    assert "Welcome to the SpiceDB docs of Acme." in skill
    # a folder of links only (links/) and a page code makes ([name]/page.tsx) are no
    # problem; no _meta file is copied
    assert not any("links" in n or "[name]" in n for n in result.notes)
    assert not list(kb.rglob("_meta*"))
    # Markdown beside a page.mdx is a part it imports: served by no route, a file
    assert (kb / "spicedb" / "concepts" / "caveats" / "old.txt").is_file()


GLOBAL_META = """\
import type { MetaRecord } from 'nextra'
import { LinkArrowIcon } from 'nextra/icons'

const ExternalLink = ({ children }) => <>{children}<LinkArrowIcon height="1em" /></>

const GUIDE: MetaRecord = {
  markdown: '',
  'syntax-highlighting': 'Syntax Highlighting',
  search: {
    items: {
      index: '',
      ai: {
        title: <span className="badge-new">Ask AI</span>
      }
    }
  },
}

const BLOG_THEME: MetaRecord = {
  start: '',
  // prettier-ignore
  posts: <><code>/posts</code>&nbsp;Page</>,
}

export default {
  index: {
    type: 'page',
    display: 'hidden'
  },
  docs: {
    type: 'page',
    title: 'Documentation',
    items: {
      index: '',
      guide: { items: GUIDE },
      _: {
        type: 'separator',
        title: 'Themes'
      },
      'blog-theme': { items: BLOG_THEME },
      'next.js-link': {
        title: <ExternalLink>Next.js Docs</ExternalLink>,
        href: 'https://nextjs.org'
      },
      'old-theme': '',
    }
  },
  versions: {
    type: 'menu',
    title: 'Versions',
    items: {
      _3: { title: 'Nextra v3 Docs', href: 'https://v3.example' }
    }
  },
  about: {
    type: 'page',
    display: 'children'
  }
}
"""


def test_a_global_meta_with_components_and_consts() -> None:
    """Nextra's own docs: one ``_meta.global.tsx`` whose folders' items are ``const``\\s
    of the file, titles drawn by components (their pages' own titles stand), a
    ``display: 'children'`` folder shown as its entries, a menu of links."""
    files = {
        "next.config.ts": "import nextra from 'nextra'\nexport default nextra({})({})\n",
        "app/_meta.global.tsx": GLOBAL_META,
        "app/page.tsx": "export default function Home() { return null }\n",
        "app/docs/page.mdx": "# Docs\n",
        "app/docs/guide/page.mdx": "# Guide\n",
        "app/docs/guide/syntax-highlighting/page.mdx": "# Syntax\n",
        "app/docs/guide/markdown/page.mdx": "# Markdown\n",
        "app/docs/guide/search/page.mdx": "# Search\n",
        "app/docs/guide/search/ai/page.mdx": "# AI\n",
        "app/docs/blog-theme/page.mdx": "# Blog theme\n",
        "app/docs/blog-theme/start/page.mdx": "# Start\n",
        "app/docs/blog-theme/posts/page.mdx": "# Posts\n",
        "app/about/page.mdx": "# About\n",
        "app/about/team/page.mdx": "# Team\n",
    }
    toc = read_toc("next.config.ts", files.get, set(files))
    assert toc is not None and toc.docs_dir == "app"

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    assert shape(toc.roots) == [
        (
            "Documentation",
            None,
            [
                (None, "app/docs/page.mdx", []),
                (
                    None,
                    None,
                    [
                        (None, "app/docs/guide/page.mdx", []),
                        (None, "app/docs/guide/markdown/page.mdx", []),
                        ("Syntax Highlighting", "app/docs/guide/syntax-highlighting/page.mdx", []),
                        (
                            None,
                            None,
                            [
                                (None, "app/docs/guide/search/page.mdx", []),
                                (None, "app/docs/guide/search/ai/page.mdx", []),
                            ],
                        ),
                    ],
                ),
                (
                    "Themes",
                    None,
                    [
                        (
                            None,
                            None,
                            [
                                (None, "app/docs/blog-theme/page.mdx", []),
                                (None, "app/docs/blog-theme/start/page.mdx", []),
                                (None, "app/docs/blog-theme/posts/page.mdx", []),
                            ],
                        )
                    ],
                ),
            ],
        ),
        # about's entries in its place (display: 'children')
        (None, "app/about/page.mdx", []),
        (None, "app/about/team/page.mdx", []),
    ]
    # 'old-theme' names no page: said where the global _meta names it
    line = next(n for n, text in enumerate(GLOBAL_META.splitlines(), 1) if "'old-theme'" in text)
    assert toc.problems == [
        f"app/_meta.global.tsx:{line}: its _meta names 'old-theme', which is no page or "
        "folder in app/docs/; fix the key or add the page"
    ]
    assert toc.served_as["app/docs/guide/search/ai"] == "app/docs/guide/search/ai/page.mdx"
    assert "app/docs/guide/page.mdx" in toc.folder_pages


def test_a_content_folder_per_language_and_a_meta_built_by_code(tmp_path: Path) -> None:
    """Nextra 4's ``content/``: a folder per language (the default one's is the tree,
    the others said), served under ``contentDirBasePath``; a ``_meta.js`` whose object
    code builds is said by file and line, and its folder's pages follow by name."""
    config = (
        "import nextra from 'nextra'\n\nconst withNextra = nextra({\n  latex: true,\n"
        "  contentDirBasePath: '/docs'\n})\n\nexport default withNextra({\n  i18n: {\n"
        "    locales: ['en', 'es'],\n    defaultLocale: 'en'\n  }\n})\n"
    )
    files = {
        "next.config.mjs": config,
        "content/en/_meta.js": "import { build } from './lib'\n\nexport default build(['b', 'a'])\n",
        "content/en/index.mdx": page("Welcome", "Read [b](/docs/features/b) and [a](/docs/a)."),
        "content/en/a.mdx": page("Page A"),
        "content/en/features/b.md": page("Page B", "Back to [the start](/docs)."),
        "content/en/features/_meta.ts": "import { more } from './more'\n\nexport default {\n"
        "  b: { title: 'The B page' },\n  ...more,\n}\n",
        "content/es/index.mdx": page("Bienvenida"),
        "content/es/a.mdx": page("Página A"),
        "package.json": "{}",
    }
    root = write_sources(tmp_path / "src", files)
    toc = find_toc(set(files), files.get)
    assert toc is not None and toc.docs_dir == "content/en" and toc.base_url == "docs"

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    assert shape(toc.roots) == [
        (None, "content/en/index.mdx", []),
        (None, "content/en/a.mdx", []),
        (None, None, [("The B page", "content/en/features/b.md", [])]),
    ]
    assert toc.problems == [
        "next.config.mjs:11: content/es/ translate content/en/, the default language's "
        "pages, whose sidebar this is: left out; build one of those folders alone for a "
        "package in its language",
        "content/en/_meta.js:3: its object is built by code (no plain object after export "
        "default): not read; its folder's pages follow by name",
        "content/en/features/_meta.ts:5: entries made by code (...more) are not read; the "
        "pages they name follow by name",
    ]
    result = build(root, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert sorted(pkg.documents) == ["a.md", "features/b.md", "index-page.md"]
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken


def test_the_site_name_of_a_next_app() -> None:
    assert next_app_about(LAYOUT) == ("Acme Docs", "Welcome to the SpiceDB docs of Acme.")
    plain = "export const metadata: Metadata = {\n  title: 'Plain',\n  description: 'D.'\n}\n"
    assert next_app_about(plain) == ("Plain", "D.")
    assert next_app_about("export default function Layout() {}\n") == (None, None)


def test_another_tools_next_config_or_meta_is_no_nextra_site() -> None:
    files = {"next.config.js": "module.exports = { reactStrictMode: true }\n", "pages/a.mdx": "x"}
    assert read_toc("next.config.js", files.get, set(files)) is None
    bad = {"pages/_meta.json": "{ not json", "pages/a.mdx": "# A\n"}
    toc = read_toc("pages/_meta.json", bad.get, set(bad))
    assert toc is not None and toc.docs_dir == ""  # a folder built alone names no folder
    assert [n.path for n in toc.roots] == ["pages/a.mdx"]
    assert toc.problems[0].startswith("pages/_meta.json:1: not valid JSON (")


PELICAN_META = """const versions = eval(process.env.VERSIONS || "['latest']");
export default {
\t"about-pelican": "About Pelican",
\t"install": "Installing Pelican",
\t"getting-started": "Getting Started",
\t"versions": { "title": "Versions", "type": "menu",
\t\t"items": versions.reverse().reduce((acc, v) => { acc[v] = { title: v, href: `/${v}` }; return acc }, {}) }
}
"""


def test_an_app_folder_with_one_computed_meta_entry(tmp_path: Path) -> None:
    """PelicanPlatform/pelican's docs/: one ``_meta.js`` entry built by code (its navbar's
    versions menu) threw the whole order away, and the app/ folder below the build's
    root left its 617 site-rooted links (``/install/``) broken."""

    def page(title: str, text: str) -> str:
        return f"# {title}\n\n{text}\n"

    source = write_sources(
        tmp_path / "src",
        {
            "app/_meta.js": PELICAN_META,
            "app/page.tsx": "export default function Page() { return null }\n",
            "app/about-pelican/page.mdx": page(
                "About Pelican", "Pelican builds data federations; [install it](/install/)."
            ),
            "app/install/page.mdx": page("Install Pelican", "Download the binary for Linux."),
            "app/getting-started/page.mdx": page(
                "Getting Started", "Read [about it](/about-pelican/) first."
            ),
            "aup-example.md": "# Acceptable use\n\nAn example policy for a federation.\n",
        },
    )
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    root = (out / "index.md").read_text("utf-8")
    order = [line.split("](")[0][3:] for line in root.splitlines() if line.startswith("* [")]
    assert order == ["About Pelican", "Install Pelican", "Getting Started"]
    assert any("versions: its value is built by code" in n for n in result.notes), result.notes
    pkg = Package(out)
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_a_nextra_pages_link_to_a_file_leads_where_nextra_serves_it(tmp_path: Path) -> None:
    """pelican's pages link ``../install.mdx``: Nextra drops the ``.mdx`` and the page is
    ``app/install/page.mdx`` (617 links broken, 163 after its app/ folder was read)."""
    source = write_sources(
        tmp_path / "src",
        {
            "app/_meta.js": 'export default {\n  "install": "Install",\n  "guide": "Guide"\n}\n',
            "app/install/page.mdx": "# Install Pelican\n\nDownload the binary for Linux.\n",
            "app/guide/page.mdx": "# Guide\n\nFirst [install it](../install.mdx#download).\n",
            "app/guide/client/page.mdx": "# Client\n\nSee [install](../../install.mdx).\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
