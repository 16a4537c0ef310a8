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
