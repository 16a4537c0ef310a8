"""Sources whose names order their pages (svelte's ``documentation/docs/03-template-syntax/
02-if.md``) and titles numbered as steps (vuejs' tutorial "Step 1" ... "Step 15"): built
before, folders were titled "03 template syntax", entries ordered as strings ("Step 1,
Step 10, Step 11, Step 2", "Basic markup, class, If") and a link by the served name
(``basic-markup``) was broken."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.text.slug import order_prefix, without_order_prefix
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.UTC)


def test_an_order_prefix_orders_and_names_nothing() -> None:
    assert without_order_prefix("03-template-syntax") == "template-syntax"
    assert without_order_prefix("01_introduction") == "introduction"
    assert without_order_prefix("99-legacy") == "legacy"
    for kept in ("2-factor-auth", "2024-05-release", "404", "v2-api", "10"):
        assert without_order_prefix(kept) == kept  # a name, a date, a number alone
    assert order_prefix("18-class.md") == 18 and order_prefix("class.md") is None


def test_a_folder_of_numbered_names_keeps_their_order(tmp_path: Path) -> None:
    files = {
        "docs/01-introduction/01-overview.md": "# Overview\n\nSvelte is a UI framework.\n",
        "docs/03-template-syntax/01-basic-markup.md": "# Basic markup\n\nMarkup is HTML.\n",
        "docs/03-template-syntax/02-if.md": (  # YAML refuses it; svelte's loader reads it
            "---\ntitle: {#if ...}\n---\n\n"
            "Content shown under a condition; see [basic markup](basic-markup).\n"
        ),
        "docs/03-template-syntax/06-snippet.md": "# Snippet\n\nReusable chunks of markup.\n",
        "docs/03-template-syntax/18-class.md": "# class\n\nTwo ways to set classes.\n",
        **{
            f"tutorial/step-{n}.md": f"# Step {n}\n\nIn step {n} you change the counter app.\n"
            for n in range(1, 12)
        },
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0
    docs = parse_index((out / "docs/index.md").read_text("utf-8"))
    assert [e.title for e in docs.entries] == ["Introduction", "Template syntax"]
    syntax = parse_index((out / "docs/03-template-syntax/index.md").read_text("utf-8"))
    assert [e.title for e in syntax.entries] == ["Basic markup", "{#if ...}", "Snippet", "class"]
    steps = parse_index((out / "tutorial/index.md").read_text("utf-8"))
    assert [e.title for e in steps.entries] == [f"Step {n}" for n in range(1, 12)]
    pkg = Package(out)
    pkg.load()
    assert [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"] == []


def test_a_section_page_that_only_names_its_folder_names_it(tmp_path: Path) -> None:
    """react-router's ``docs/start/index.md`` is ``title: Getting Started`` alone: the
    folder was "Start" and the page a document "Document imported from index.md" (22 in
    its docs, 10 in svelte's)."""
    files = {
        "docs/start/index.md": "---\ntitle: Getting Started\norder: 1\n---\n",
        "docs/start/installation.md": "# Installation\n\nInstall the router with npm.\n",
        "docs/start/routing.md": "# Routing\n\nRoutes map addresses to components.\n",
        "docs/api/index.md": "---\ntitle: API\n---\n\nEvery export of the package.\n",
        "docs/api/hooks.md": "# Hooks\n\nThe hooks the router exports.\n",
    }
    out = tmp_path / "kb"
    result = build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    assert result.errors == 0
    root = parse_index((out / "index.md").read_text("utf-8"))
    assert "Getting Started" in [e.title for e in root.entries]
    assert not (out / "start/index-page.md").exists()  # no empty document
    assert (out / "api/index-page.md").exists()  # a section page with words stays one
    assert [n for n in result.notes if "start/index.md" in n and "Getting Started" in n]


def test_a_page_named_for_a_file_is_found_by_that_name(tmp_path: Path) -> None:
    """react-router's ``api/framework-conventions/entry.server.tsx.md`` links its sibling
    as ``./entry.client.tsx``, the address the site serves it at: 22 broken links."""
    files = {
        "api/entry.server.tsx.md": (
            "# entry.server.tsx\n\nRenders the app on the server; see "
            "[entry.client](./entry.client.tsx) for the browser.\n"
        ),
        "api/entry.client.tsx.md": "# entry.client.tsx\n\nHydrates the app in the browser.\n",
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=NOW, workers=1)
    pkg = Package(out)
    pkg.load()
    assert [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"] == []


def test_a_title_naming_a_tag_is_no_command() -> None:
    """vuejs' ``# \\<script setup>``, once titled so, was read as a command's page whose
    usage is its first code line: "...(SFCs): `<script setup>`.", its sections gone."""
    from tests.helpers.build_sources import drafted

    said = drafted(
        "# \\<script setup>\n\n`<script setup>` is a compile-time syntactic sugar for "
        "using Composition API inside Single-File Components.\n\n## Basic Syntax\n\n"
        "```vue\n<script setup>\nconsole.log('hello')\n</script>\n```\n\n## Reactivity\n\n"
        "State is reactive.\n",
        "sfc-script-setup.md",
        "api",
    )
    assert said.title == "<script setup>"
    assert said.description.endswith("covers Basic Syntax and Reactivity."), said.description
