"""MDX read as the page its site renders: without its code-only lines.

An ``.mdx`` page (Docusaurus, Astro Starlight) is Markdown with JavaScript: module
statements at its top level (``import { Steps, Tabs } from '@astrojs/starlight/
components';``, ``export const toc = ...;``) and comments in braces (``{/* TODO */}``)
that the site never shows. Left in, they were the first "sentence" of 21 of Tauri's
pages' descriptions. Components (``<Tabs>``) stay: they hold the page's words. Code
examples stay as written: only lines outside fenced blocks are read.
"""

from __future__ import annotations

import re

from kas_tui.text.prose import outside_fences

#: One ``import``: ``import x from 'y'``, ``import { a,\n b } from "y"``, ``import 'y'``.
_IMPORT = r"import\s+(?:[\w*${},\s]+?\s+from\s+)?['\"][^'\"\n]+['\"]"
#: A top-level module statement: imports, one or more to a line (React Native's
#: ``import Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem';``), or a
#: one-line ``export ...``.
_MODULE = re.compile(
    rf"^(?:(?:{_IMPORT})[ \t]*;?[ \t]*)+$"
    r"|^export\s+(?:const|let|var|default|function|\{)[^\n]*[ \t]*$",
    re.M,
)
#: A JSX comment, over one line or several.
_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.S)


def without_module_code(markdown: str) -> str:
    """``markdown`` (an MDX page's body) without its top-level ``import``/``export``
    statements and ``{/* */}`` comments, outside fenced code; a line left empty by them
    goes too, so the page's first paragraph is its first words."""

    def cleaned(prose: str) -> str:
        return re.sub(r"\n{3,}", "\n\n", _COMMENT.sub("", _MODULE.sub("", prose)))

    return outside_fences(markdown, cleaned).lstrip("\n")


#: A ``<script>`` or ``<style>`` block opening a line (a VitePress page's ``<script
#: setup>``): code the site runs or styles with, never text it shows.
_SCRIPT_BLOCK = re.compile(r"^<(script|style)\b[^>]*>.*?</\1\s*>[ \t]*$", re.I | re.S | re.M)


def without_page_code(markdown: str) -> str:
    """A Markdown page's body without what its site runs and never shows, outside
    fenced code: top-level module statements (Docusaurus reads every ``.md`` page as
    MDX: redux's 21 pages and React Native's 83 kept their ``import Tabs from
    '@theme/Tabs'`` lines) and ``<script>``/``<style>`` blocks (VitePress' ``<script
    setup>``, vite's 9 pages)."""
    if "import" not in markdown and "export" not in markdown and "<s" not in markdown.lower():
        return markdown

    def cleaned(prose: str) -> str:
        out = _SCRIPT_BLOCK.sub("", _MODULE.sub("", prose))
        return prose if out == prose else re.sub(r"\n{3,}", "\n\n", out)

    shown = outside_fences(markdown, cleaned)
    return markdown if shown == markdown else shown.lstrip("\n")
