"""Markdown files an MDX page shows as components, as three real sites write them:

- jestjs/jest: ``import TypeScriptExamplesNote from './_TypeScriptExamplesNote.md';``
  then ``<TypeScriptExamplesNote />`` (a Docusaurus partial, with a relative link);
- tauri-apps/tauri-docs: ``import Cta from '@fragments/cta.mdx';`` (an alias: not a
  file path) and ``import Cta from '../_fragments/cta.mdx'``;
- mintlify/docs: ``import SubpathSetupSteps from "/snippets/subpath-setup-steps.mdx";``
  from the site's root, the snippet importing another.

Built before, each page kept the bare tag (``<TypeScriptExamplesNote />``) where the
site shows the note's text: 2 of Jest's API pages, Tauri's start page, 23 Mintlify pages."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.mdx_components import (
    alias_folders,
    component_imports,
    expand_components,
    import_candidates,
    path_aliases,
)
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def test_imports_and_where_their_files_are() -> None:
    source = (
        "---\ntitle: Expect\n---\n\n"
        "import TypeScriptExamplesNote from './_TypeScriptExamplesNote.md';\n"
        "import {Tabs, TabItem} from '@astrojs/starlight/components';\n"
        "import Cta from '@fragments/cta.mdx';\n"
        'import Beta from "/snippets/beta.mdx"\n\n'
        "```mdx\nimport Shown from '/snippets/shown.mdx';\n```\n"
    )
    assert component_imports(source) == {
        "TypeScriptExamplesNote": "./_TypeScriptExamplesNote.md",
        "Cta": "@fragments/cta.mdx",
        "Beta": "/snippets/beta.mdx",
    }
    assert import_candidates("docs/api/expect.md", "./_Note.md") == ["docs/api/_Note.md"]
    assert import_candidates("docs/a/b.mdx", "/snippets/x.mdx") == [
        "docs/a/snippets/x.mdx",
        "docs/snippets/x.mdx",
        "snippets/x.mdx",
    ]
    assert import_candidates("docs/x.mdx", "@site/src/note.md") == [
        "docs/src/note.md",
        "src/note.md",
    ]
    assert import_candidates("x.mdx", "@fragments/cta.mdx") == []  # a bundler's alias
    assert import_candidates("docs/x.mdx", "../../outside.md") == []


def test_a_tag_is_the_files_text_nested_and_rebased() -> None:
    files = {
        "snippets/steps.mdx": (
            'import Note from "/snippets/note.mdx";\n\n'
            "1. Open the [dashboard](../guides/dashboard.md).\n2. Click **Add domain**.\n\n<Note />\n"
        ),
        "snippets/note.mdx": "---\ntitle: ignored\n---\n> Domains take an hour to verify.\n",
        "snippets/loop.mdx": 'import Loop from "/snippets/loop.mdx";\n\n<Loop />\n',
    }
    source = (
        'import Steps from "/snippets/steps.mdx";\nimport Missing from "/snippets/gone.mdx";\n'
        'import Loop from "/snippets/loop.mdx";\n'
    )
    text = (
        "# Vercel\n\nSet it up:\n\n  <Steps />\n\n<Missing />\n\n"
        "```jsx\n<Steps />\n```\n\nBefore <Steps /> inline.\n\n<Loop />\n"
    )
    shown = expand_components(text, "deploy/vercel.mdx", source, files.get)
    assert "  1. Open the [dashboard](../guides/dashboard.md)." in shown.text
    assert "  > Domains take an hour to verify." in shown.text
    assert "ignored" not in shown.text and "import Note" not in shown.text
    assert "```jsx\n<Steps />\n```" in shown.text  # code shows the tag as written
    assert "Before <Steps /> inline." in shown.text
    assert "<Missing />" in shown.text and shown.text.count("<Loop />") == 1
    assert shown.included == ["snippets/steps.mdx", "snippets/note.mdx", "snippets/loop.mdx"]
    problems = {p.target: (p.line, p.message) for p in shown.problems}
    assert problems["/snippets/gone.mdx"][0] == 7
    assert (
        "not in the source (looked for deploy/snippets/gone.mdx, snippets/gone.mdx)"
        in (problems["/snippets/gone.mdx"][1])
    )
    assert "leads back" in problems["/snippets/loop.mdx"][1]


def test_a_docusaurus_partial_shows_in_the_built_page(tmp_path: Path) -> None:
    files = {
        "docs/ExpectAPI.md": (
            "---\nid: expect\ntitle: Expect\n---\n\n"
            "import TypeScriptExamplesNote from './_TypeScriptExamplesNote.md';\n\n"
            "When you're writing tests, you often need to check that values meet conditions.\n\n"
            "<TypeScriptExamplesNote />\n\n## Reference\n\nThe matchers.\n"
        ),
        "docs/_TypeScriptExamplesNote.md": (
            ":::info\n\nThe TypeScript examples from this page will only work if you import "
            "Jest APIs. Consult the [Getting Started](GettingStarted.md) guide.\n\n:::\n"
        ),
        "docs/GettingStarted.md": "---\nid: getting-started\ntitle: Getting Started\n---\n\nInstall Jest.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    page = next((tmp_path / "kb").rglob("expect*.md")).read_text("utf-8")
    assert "The TypeScript examples from this page will only work" in page
    assert "<TypeScriptExamplesNote />" not in page
    # the partial's link leads to the page it names
    assert "[Getting Started](gettingstarted.md)" in page
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert not any(p.name.startswith("_type") for p in (tmp_path / "kb").rglob("*.md"))


def test_a_changed_partial_builds_the_page_that_shows_it_again(tmp_path: Path) -> None:
    files = {
        "docs/intro.mdx": "# Intro\n\nimport Beta from './_beta.mdx';\n\nThe intro page.\n\n<Beta />\n",
        "docs/_beta.mdx": "This feature is in beta.\n",
        "docs/other.md": "# Other\n\nAnother page.\n",
    }
    src = write_sources(tmp_path / "src", files)
    build(src, tmp_path / "kb", now=NOW, workers=1)
    (src / "docs" / "_beta.mdx").write_text("This feature is generally available.\n", "utf-8")
    result = build(src, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    page = next((tmp_path / "kb").rglob("intro*.md")).read_text("utf-8")
    assert "generally available" in page and "in beta" not in page
    assert result.updated == ["intro.md"], result.report


def test_an_alias_the_sites_tsconfig_declares() -> None:
    # tauri-docs: `import Cta from '@fragments/cta.mdx';` through tsconfig paths (JSONC)
    tsconfig = (
        '{\n  "extends": "astro/tsconfigs/strict",\n  // where the docs import from\n'
        '  "compilerOptions": {\n    "baseUrl": ".",\n    "paths": {\n'
        '      "@components/*": ["src/components/*"],\n'
        '      "@fragments/*": ["src/content/docs/_fragments/*"],\n    },\n  },\n}\n'
    )
    files = {
        "tsconfig.json": tsconfig,
        "node_modules/x/tsconfig.json": '{"compilerOptions": {"paths": {"@x/*": ["y/*"]}}}',
        "src/content/docs/_fragments/cta.mdx": "Run `npm create tauri-app@latest` to start.\n",
    }
    aliases = path_aliases(files, files.get)
    assert aliases == {
        "@components/*": ["src/components/*"],
        "@fragments/*": ["src/content/docs/_fragments/*"],
    }
    assert import_candidates("src/content/docs/start/index.mdx", "@fragments/cta.mdx", aliases) == [
        "src/content/docs/_fragments/cta.mdx"
    ]
    shown = expand_components(
        "# Start\n\n<Cta />\n",
        "src/content/docs/start/index.mdx",
        "import Cta from '@fragments/cta.mdx';\n",
        files.get,
        aliases=aliases,
    )
    assert "Run `npm create tauri-app@latest` to start." in shown.text and not shown.problems


def test_a_product_apps_aliases_are_not_the_sites() -> None:
    # agentops: app/tsconfig.json declares "@/*" for its dashboard beside docs/; its 51
    # images were copied into the docs package as the docs' own
    files = {
        "app/tsconfig.json": '{"compilerOptions": {"paths": {"@/*": ["./*"]}}}',
        "docs/tsconfig.json": '{"compilerOptions": {"baseUrl": ".", "paths": {"@img/*": ["../media/*"], "@/*": ["./*"]}}}',
        "tsconfig.json": '{"compilerOptions": {"paths": {"@assets/*": ["src/assets/*"]}}}',
    }
    aliases = path_aliases(files, files.get, site="docs")
    assert aliases == {"@img/*": ["media/*"], "@/*": ["docs/*"], "@assets/*": ["src/assets/*"]}
    assert set(alias_folders(aliases, "docs")) == {"media/", "src/assets/"}


def test_an_escaped_import_path_is_the_file_it_names() -> None:
    # react-native-website: import GuideMacOSAndroid from './\_getting-started-macos-android.md';
    source = "import GuideMacOSAndroid from './\\_getting-started-macos-android.md';\n"
    files = {"docs/_getting-started-macos-android.md": "Install Node and Watchman.\n"}
    shown = expand_components("<GuideMacOSAndroid/>\n", "docs/set-up.md", source, files.get)
    assert "Install Node and Watchman." in shown.text and not shown.problems
