"""A Fumadocs site as fuma-nama/fumadocs and vercel/swr-site keep it: a
``source.config.ts`` whose ``defineDocs`` names ``content/docs``, served under the
``baseUrl`` its ``lib/source.ts`` gives (``/docs``); a ``meta.json`` in each folder
(root folders as tabs, ``---Label---`` separators, ``...`` the rest, ``...folder``
extracting a folder, ``!name`` leaving one out of the rest, ``[Text](url)`` links), a
folder group ``(framework)`` that adds nothing to its pages' paths, Chinese pages named
``api.cn.mdx`` beside the English ones, a blog collection beside the docs.

Built before this reader, fumadocs' docs were "App" and "Content" bundles beside
``package.json`` and ``scalar.yaml`` as documents, every ``meta.json`` a JSON page, 203
of their ``/docs/...`` links broken; swr-site's 144 links broken and its Chinese pages
built."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc, read_toc
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

SOURCE_CONFIG = """\
import { defineConfig, defineDocs } from 'fumadocs-mdx/config';

export const blog = defineDocs({ dir: 'content/blog' });

export const docs = defineDocs({
  dir: 'content/docs',
});

export default defineConfig();
"""
FRAMEWORK_META = json.dumps(
    {
        "title": "Framework",
        "root": True,
        "pages": [
            "---Introduction---",
            "index",
            "comparisons",
            "---Writing---",
            "markdown",
            "page-conventions",
            "versioning",
            "---Integrations---",
            "...integrations",
            "[GitHub](https://github.com/acme/docs)",
        ],
    },
    indent=2,
)


def page(title: str, body: str = "") -> str:
    said = f"How {title.lower()} works in Acme Docs, step by step."
    return f"---\ntitle: {title}\ndescription: {said}\n---\n\n{body or title + '.'}\n"


def fumadocs_like() -> dict[str, str | bytes]:
    return {
        "source.config.ts": SOURCE_CONFIG,
        "lib/source.ts": "import { loader } from 'fumadocs-core/source';\n\n"
        "export const source = loader({\n  baseUrl: '/docs',\n  source: docs.toFumadocsSource(),\n});\n",
        "next.config.mjs": "import { createMDX } from 'fumadocs-mdx/next';\n\nexport default "
        "createMDX()({\n  async redirects() {\n    return [{ source: '/docs/old-markdown', "
        "destination: '/docs/markdown', permanent: true }];\n  },\n});\n",
        "app/layout.tsx": "export const metadata = {\n  title: { template: '%s | Acme Docs', "
        "default: 'Acme Docs' },\n  description: 'The docs framework of Acme.',\n};\n",
        "package.json": '{"name": "docs"}',
        "scalar.yaml": "openapi: 3.0.0\n",
        "content/docs/meta.json": json.dumps({"pages": ["(framework)", "ui", "cli"]}),
        "content/docs/(framework)/meta.json": FRAMEWORK_META,
        "content/docs/(framework)/index.mdx": page(
            "Quick Start", "Read [Markdown](/docs/old-markdown) and [the UI](/docs/ui/layouts)."
        ),
        "content/docs/(framework)/comparisons.mdx": page("Comparisons"),
        "content/docs/(framework)/markdown/index.mdx": page(
            "Markdown", "See [Mermaid](./markdown/mermaid) and [conventions](./page-conventions)."
        ),
        "content/docs/(framework)/markdown/mermaid.mdx": page("Mermaid"),
        "content/docs/(framework)/page-conventions.mdx": page("Page Conventions"),
        "content/docs/(framework)/integrations/meta.json": json.dumps({"title": "Integrations"}),
        "content/docs/(framework)/integrations/rss.mdx": page("RSS Feed"),
        "content/docs/(framework)/integrations/llms.mdx": page(
            "AI and LLMs", "![actions](/docs/ai-actions.png)"
        ),
        "content/docs/ui/meta.json": json.dumps(
            {"title": "Fumadocs UI", "root": True, "pages": ["index", "...", "!internal"]}
        ),
        "content/docs/ui/index.mdx": page("UI Overview"),
        "content/docs/ui/theme.mdx": page("Themes"),
        "content/docs/ui/internal.mdx": page("Internal notes"),
        "content/docs/ui/layouts/index.mdx": page("Layouts"),
        "content/docs/ui/layouts/docs.mdx": page("Docs Layout", "Back to [themes](../theme)."),
        "content/docs/ui/components/meta.json": json.dumps({"pages": ["tabs", "accordion"]}),
        "content/docs/ui/components/accordion.mdx": page("Accordion"),
        "content/docs/ui/components/tabs.mdx": page("Tabs"),
        "content/docs/ui/components/banner.mdx": page("Banner"),
        "content/docs/ui/theme.cn.mdx": page("主题"),
        "content/docs/ui/meta.cn.json": json.dumps({"title": "界面"}),
        "content/docs/cli/meta.json": '{\n  "title": "CLI",\n  "pages": ["index",,]\n}\n',
        "content/docs/cli/index.mdx": page("CLI"),
        "content/blog/v16.mdx": page("Fumadocs 16", "Read [the UI](/docs/ui)."),
        "public/docs/ai-actions.png": b"\x89PNG\r\n\x1a\nfake",
    }


def test_a_fumadocs_site_builds_as_its_page_tree(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "acme", fumadocs_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    # no meta.json, config, translation or blog post is a page
    # cli/index.mdx alone in its folder is a page named as the folder, no bundle of one
    assert sorted(pkg.documents) == [
        "cli.md",
        "framework/comparisons.md",
        "framework/index-page.md",
        "framework/integrations/llms.md",
        "framework/integrations/rss.md",
        "framework/markdown/index-page.md",
        "framework/markdown/mermaid.md",
        "framework/page-conventions.md",
        "ui/components/accordion.md",
        "ui/components/banner.md",
        "ui/components/tabs.md",
        "ui/index-page.md",
        "ui/internal.md",
        "ui/layouts/docs.md",
        "ui/layouts/index-page.md",
        "ui/theme.md",
    ]
    kb = tmp_path / "kb"
    assert not list(kb.rglob("meta*.json")) and not list(kb.rglob("meta*.txt"))
    root = (kb / "index.md").read_text("utf-8")
    assert root.splitlines()[3] == "# Acme Docs"
    # the root folders, titled by their meta.json, in the root's order
    assert [e.title for e in parse_index(root).entries][:3] == ["Framework", "Fumadocs UI", "CLI"]
    framework = parse_index((kb / "framework" / "index.md").read_text("utf-8"))
    assert ("Writing", "Page Conventions") in [(e.section, e.title) for e in framework.entries]
    notes = "\n".join(result.notes)
    line = next(n for n, t in enumerate(FRAMEWORK_META.splitlines(), 1) if '"versioning"' in t)
    assert (
        f"content/docs/(framework)/meta.json:{line}: its pages list 'versioning', which is no "
        "page or folder in content/docs/(framework)/; fix the entry or add the page"
    ) in notes
    assert "content/docs/cli/meta.json:3: not valid JSON (" in notes
    assert "1 page named by their language (content/docs/ui/theme.cn.mdx" in notes
    # /docs/... links: the group folder is no part of the path, redirects followed
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    start = (kb / "framework" / "index-page.md").read_text("utf-8")
    assert "(/framework/markdown/index-page.md)" in start and "(/ui/layouts/index-page.md)" in start
    markdown = (kb / "framework" / "markdown" / "index-page.md").read_text("utf-8")
    assert "(mermaid.md)" in markdown and "(../page-conventions.md)" in markdown
    assert "The docs framework of Acme." in (kb / "SKILL.md").read_text("utf-8")


def test_the_page_tree_as_fumadocs_orders_it() -> None:
    files = fumadocs_like()
    toc = find_toc(set(files), files.get)  # type: ignore[arg-type]
    assert toc is not None and toc.kind == "fumadocs"
    assert toc.docs_dir == "content/docs" and toc.base_url == "docs"

    def shape(nodes: list) -> list:
        return [(n.title, n.path, shape(n.children)) for n in nodes]

    d = "content/docs"
    assert shape(toc.roots) == [
        (
            "Framework",
            None,
            [
                (
                    "Introduction",
                    None,
                    [
                        (None, f"{d}/(framework)/index.mdx", []),  # a root folder's index: a page
                        (None, f"{d}/(framework)/comparisons.mdx", []),
                    ],
                ),
                (
                    "Writing",
                    None,
                    [
                        (
                            None,
                            None,
                            [
                                (None, f"{d}/(framework)/markdown/index.mdx", []),
                                (None, f"{d}/(framework)/markdown/mermaid.mdx", []),
                            ],
                        ),
                        (None, f"{d}/(framework)/page-conventions.mdx", []),
                    ],
                ),
                (
                    "Integrations",
                    None,
                    [  # ...integrations: its pages in its place, by name
                        (None, f"{d}/(framework)/integrations/llms.mdx", []),
                        (None, f"{d}/(framework)/integrations/rss.mdx", []),
                    ],
                ),
            ],
        ),
        (
            "Fumadocs UI",
            None,
            [
                (None, f"{d}/ui/index.mdx", []),
                # the rest: pages, then folders, by name; !internal left out
                (None, f"{d}/ui/theme.mdx", []),
                (
                    None,
                    None,
                    [  # a meta's pages without "...": the others are in no sidebar
                        (None, f"{d}/ui/components/tabs.mdx", []),
                        (None, f"{d}/ui/components/accordion.mdx", []),
                    ],
                ),
                (
                    None,
                    None,
                    [
                        (None, f"{d}/ui/layouts/index.mdx", []),
                        (None, f"{d}/ui/layouts/docs.mdx", []),
                    ],
                ),
            ],
        ),
        # its meta.json does not read: untitled, its pages by name
        (None, None, [(None, f"{d}/cli/index.mdx", [])]),
    ]
    assert toc.served_as[f"{d}/comparisons"] == f"{d}/(framework)/comparisons.mdx"
    assert toc.folder_titles()[f"{d}/(framework)/integrations"] == "Integrations"
    assert f"{d}/ui/meta.cn.json" in toc.also_read


def test_a_docs_folder_built_alone_and_another_tools_meta_json() -> None:
    alone = {
        "meta.json": json.dumps({"title": "Guide", "pages": ["b", "a"]}),
        "a.mdx": "# A\n",
        "b.mdx": "# B\n",
    }
    toc = read_toc("meta.json", alone.get, set(alone))
    assert toc is not None and toc.docs_dir == ""
    assert [n.path for n in toc.roots] == ["b.mdx", "a.mdx"]
    other = {"meta.json": json.dumps({"version": 2, "name": "x"}), "a.md": "# A\n"}
    assert read_toc("meta.json", other.get, set(other)) is None
    plain = {"source.config.ts": "export default {}\n", "content/docs/a.mdx": "# A\n"}
    assert read_toc("source.config.ts", plain.get, set(plain)) is None
