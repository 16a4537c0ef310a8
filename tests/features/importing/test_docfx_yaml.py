"""docfx's structured YAML pages (``### YamlMime:FAQ``, ``:Hub``, ``:Landing``) become
the Markdown pages the site renders, titled and described by their own metadata."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.importing.build import build
from kas_tui.features.importing.convert import Limits, convert_here
from kas_tui.features.importing.docfx_yaml import docfx_page, yamlmime_kind
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

FAQ = """### YamlMime:FAQ
metadata:
  title: Copy and paste data FAQ
  description: Get answers to frequently asked questions about copying and pasting data.
  ms.topic: faq
  ms.date: 04/26/2024
title: Copy and paste FAQ
summary: |
  You can copy one or more rows from a list and paste them into another page.

  This article answers common questions.
sections:
  - name: General
    questions:
      - question: What can I copy and paste?
        answer: |
          Rows and single fields.
      - question: Does copy and paste work with tiles?
        answer: Yes, but only for a single selected tile.
"""

HUB = """### YamlMime:Hub

title:  Widgetry documentation
summary: Learn to build and run widget shops.
brand: dynamics
metadata:
  title: Widgetry docs
  description: Widgetry is a shop system for small firms.
  ms.topic: hub-page
highlightedContent:
  items:
    - title: Welcome to Widgetry
      itemType: overview
      url: welcome.md
conceptualContent:
  title: Do business
  items:
    - title: Sales
      links:
        - url: sales.md
          itemType: how-to-guide
          text: Sell widgets
"""


def test_a_faq_page_reads_as_questions_and_answers() -> None:
    assert yamlmime_kind(FAQ) == "FAQ"
    page = docfx_page(FAQ)
    assert page is not None
    front, body = page
    assert front["title"] == "Copy and paste FAQ"
    assert front["description"].startswith("Get answers to frequently asked questions")
    assert front["ms.topic"] == "faq"
    assert body.startswith("# Copy and paste FAQ\n\nYou can copy one or more rows")
    assert "## General\n\n### What can I copy and paste?\n\nRows and single fields." in body
    assert "### Does copy and paste work with tiles?\n\nYes, but only" in body
    assert "YamlMime" not in body and "metadata" not in body


def test_a_hub_page_reads_as_its_cards_and_links() -> None:
    front, body = docfx_page(HUB) or ({}, "")
    assert front["title"] == "Widgetry documentation"
    assert front["description"] == "Widgetry is a shop system for small firms."
    assert "- [Welcome to Widgetry](welcome.md)" in body
    assert "## Do business" in body and "- [Sell widgets](sales.md)" in body
    assert "overview" not in body and "dynamics" not in body  # the page's machinery


def test_plain_yaml_and_broken_yaml_are_not_pages() -> None:
    assert docfx_page("key: value\n") is None
    assert docfx_page("### YamlMime:FAQ\nsections: [unclosed\n") is None
    assert docfx_page("### YamlMime:FAQ\n- a list\n") is None


def test_convert_reads_a_yamlmime_file_as_markdown(tmp_path: Path) -> None:
    path = tmp_path / "faq-copy-paste.yml"
    path.write_text(FAQ, encoding="utf-8")
    result = convert_here(path, Limits())
    assert result.kind == "markdown"
    assert result.frontmatter["title"] == "Copy and paste FAQ"
    plain = tmp_path / "config.yml"
    plain.write_text("### a comment\nkey: value\n", encoding="utf-8")
    assert convert_here(plain, Limits()).kind == "code"  # plain YAML stays a code block


def test_a_docfx_build_titles_yaml_pages_by_their_metadata(tmp_path: Path) -> None:
    source = write_sources(
        tmp_path / "src",
        {
            "faq-copy-paste.yml": FAQ,
            "welcome.md": "# Welcome to Widgetry\n\nWhat Widgetry does for a small firm.\n",
        },
    )
    out = tmp_path / "kb"
    result = build(source, out, now=NOW, workers=1)
    assert result.errors == 0
    page = fm.parse((out / "faq-copy-paste.md").read_text("utf-8"))
    assert page.data["title"] == "Copy and paste FAQ"  # never "Faq copy paste"
    assert page.data["type"].lower() == "faq"
    assert "Data file" not in page.data["description"]
    assert "### What can I copy and paste?" in (out / "faq-copy-paste.md").read_text("utf-8")


def test_an_alias_bomb_or_a_deep_nesting_is_imported_as_text_without_a_hang() -> None:
    """Nine aliases of nine make 387 million nodes from a few hundred bytes; rendering
    them would never end. Such a file is no page: it is left to be imported as text."""
    rows = ["### YamlMime:FAQ", "title: Bomb", 'a0: &a0 ["lol"]']
    for n in range(1, 10):
        rows.append(f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]")
    rows.append("sections: *a9")
    assert docfx_page("\n".join(rows) + "\n") is None
    deep = "### YamlMime:FAQ\ntitle: Deep\nsections: " + "[" * 5000 + "]" * 5000 + "\n"
    assert docfx_page(deep) is None
