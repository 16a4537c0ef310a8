"""MDX read as the page its site renders: without import lines and JSX comments."""

from __future__ import annotations

from kas_tui.text.mdx import without_module_code

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
