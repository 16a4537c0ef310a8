"""MDX read as the page its site renders: without import lines and JSX comments."""

from __future__ import annotations

from kas_tui.text.mdx import imports_modules, without_component_tags, without_module_code

PAGE = """import { Steps, TabItem, Tabs } from '@astrojs/starlight/components';
import CommandTabs from '@components/CommandTabs.astro';
import {
  Card,
  CardGrid,
} from '@astrojs/starlight/components';
import '../styles/custom.css';
export const toc = [];

{/* Is this about building .deb files,
or about installing them? */}

This guide will walk you through creating your app with Qwik.

```js
import x from 'y';
{/* an example keeps its words */}
```

<Tabs>You can import data from 'the file' too.</Tabs>
"""


def test_module_lines_and_comments_go_and_the_first_paragraph_is_the_pages() -> None:
    text = without_module_code(PAGE)
    assert text.startswith("This guide will walk you through creating your app with Qwik.")
    assert "@astrojs" not in text and "styles/custom" not in text and "toc = " not in text
    assert "Is this about" not in text
    # code examples and components stay as written
    assert "import x from 'y';\n{/* an example keeps its words */}" in text
    assert "<Tabs>You can import data from 'the file' too.</Tabs>" in text


def test_a_page_with_no_module_code_is_unchanged() -> None:
    page = "# Title\n\nSome text.\n\n```\nimport a from 'b'\n```\n"
    assert without_module_code(page) == page


def test_a_markdown_page_loses_what_its_site_runs_and_keeps_its_code_examples() -> None:
    """Docusaurus reads every ``.md`` page as MDX: redux's Getting Started opened with
    ``import LiteYouTubeEmbed from 'react-lite-youtube-embed';`` in the package, and
    vite's release page with its ``<script setup>`` block."""
    from kas_tui.text.mdx import without_page_code

    page = (
        "\nimport LiteYouTubeEmbed from 'react-lite-youtube-embed';\n"
        "import 'react-lite-youtube-embed/dist/LiteYouTubeEmbed.css'\n\n"
        "Redux is a JS library.\n\n"
        "<script setup>\nimport { data } from './releases.data'\nconst x = 1\n</script>\n\n"
        "```js\nimport { createSlice } from '@reduxjs/toolkit'\n```\n\n\n\nThe end.\n"
    )
    assert without_page_code(page) == (
        "Redux is a JS library.\n\n"
        "```js\nimport { createSlice } from '@reduxjs/toolkit'\n```\n\n\n\nThe end.\n"
    )
    plain = "\nA page.\n\n\n\nWith blank lines, <script> named in prose, and import 'x' in words.\n"
    assert without_page_code(plain) == plain  # nothing removed: not a byte changed


def test_imports_written_on_one_line_go_too() -> None:
    """React Native's ``text-style-props.md`` writes its three imports on one line,
    under "### Example": the line stayed, and was the page's description ("Import Tabs
    from '@theme/Tabs'; import TabItem from '@theme/TabItem'; ...")."""
    from kas_tui.text.mdx import without_page_code

    page = (
        "### Example\n\nimport Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem'; "
        "import constants from '@site/core/TabsConstants';\n\n<Tabs>\nThe props of a text.\n"
    )
    assert without_page_code(page) == "### Example\n\n<Tabs>\nThe props of a text.\n"
    words = "import the data first; then import the rest.\n"
    assert without_page_code(words) == words  # words, not statements


ASTRO_PAGE = """\
Install the package.

<Tabs>
  <TabItem label="npm">
  ```sh
  npm i demo
  ```
  </TabItem>
  <TabItem label="pnpm">
  ```sh
  pnpm add demo
  ```
  </TabItem>
</Tabs>

<ReadMore>
See [the sessions guide](/guides/sessions/) for more.
</ReadMore>

<ReadMore>Read more about [Routing in Astro](/guides/routing/).</ReadMore>

<LinkCard
  title="Sessions"
  href="/guides/sessions/"
/>

<CardGroup>
  <Card title="Quickstart" href="/quickstart">
    Deploy in five minutes.
  </Card>
</CardGroup>

<Steps>
1. Install Nano Stores:

    <PackageManagerTabs>
      <Fragment slot="npm">
      ```shell
      npm install nanostores
      ```
      </Fragment>
    </PackageManagerTabs>

2. Create a store.
</Steps>

**Type:** `Record<string, Font>`<br />
<Since v="6.0.0" />
<DontEditWarning />
<TOCInline toc={toc.slice(1)} />

<InstallSnippet pkgs="@trpc/server @trpc/client" />

<VPTeamMembers size="small" :members="teamMembers" />
<Beta />

```jsx
<Tabs>
  <TabItem label="kept" />
</Tabs>
```
"""


def test_components_read_as_the_site_draws_them() -> None:
    """withastro/docs: 2,843 lines of `<Tabs>`, `<Fragment slot="npm">`, `<Since ... />`
    in 386 of its 420 pages, and links inside `<ReadMore>` left unrewritten."""
    shown = without_component_tags(ASTRO_PAGE, frozenset({"Beta"}))
    assert (
        "**npm**\n\n```sh\nnpm i demo\n```\n\n**pnpm**\n" in shown
    )  # a tab's label, then its code
    assert "\nSee [the sessions guide](/guides/sessions/) for more.\n" in shown
    assert "\n[Sessions](/guides/sessions/)\n" in shown  # a card with an address: a link
    assert "\nRead more about [Routing in Astro](/guides/routing/).\n" in shown
    # a card's words, four spaces in under its group: no indented code block
    assert "[Quickstart](/quickstart)\n\n  Deploy in five minutes.\n" in shown
    # inside a list item the tabs keep the item's indentation
    assert "1. Install Nano Stores:\n\n      **npm**\n\n      ```shell\n" in shown
    assert "**Type:** `Record<string, Font>`<br />\n" in shown  # code spans untouched
    assert "<Beta />" in shown  # an imported Markdown file the build shows there
    assert '```jsx\n<Tabs>\n  <TabItem label="kept" />\n</Tabs>\n```' in shown  # code stays
    outside = shown.split("```jsx")[0]
    # a tag whose attributes hold words the page shows stays as written (tRPC's install
    # snippets, Astro's version badges); one of code or nothing goes
    assert '\n<InstallSnippet pkgs="@trpc/server @trpc/client" />\n' in shown
    assert '<Since v="6.0.0" />' in shown
    for tag in ("<Tabs", "<TabItem", "</", "<ReadMore", "<Dont", "<TOC", "<Card", "<VP"):
        assert tag not in outside, tag
    assert "\n\n\n" not in shown
    plain = "A page with <b>HTML</b>\n\n<div>\nkept\n</div>\n"
    assert without_component_tags(plain) == plain  # HTML elements are no components


def test_a_markdown_page_is_no_mdx_unless_it_imports() -> None:
    """officedocs-support's and PowerShell-Docs' XML examples (``<Configuration>``,
    ``<RelatedLinks>``), four spaces in: capitalised elements, no components."""
    xml = 'Set it:\n\n    <Configuration>\n      <Updates Enabled="TRUE" />\n    </Configuration>\n'
    assert not imports_modules(xml)
    assert imports_modules("import Tabs from '@theme/Tabs';\n\n<Tabs>\n</Tabs>\n")
    assert not imports_modules("```js\nimport x from 'y';\n```\n")
