"""A Hugo site as open-telemetry/opentelemetry.io keeps it: ``config/_default/hugo.yaml``,
each language's pages in ``content/<lang>/``, sections as folders with an ``_index.md``
ordered by ``weight``, leaf bundles, YAML or TOML front matter, shortcodes.

Built whole, it had made documents of ``package-lock.json``, a ``Makefile`` and 1,183
``data/`` files, failed on ``archetypes/`` templates, built the 985 translated pages,
titled the root "En", and resolved a page's relative links against its file instead of
the URL Hugo serves it at."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from kas_tui.features.importing.toc_hugo import hugo_about
from kas_tui.text import prose
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
CONFIG = """\
baseURL: https://opentelemetry.io
title: OpenTelemetry
theme: [docsy/theme]
defaultContentLanguage: en
languages:
  en:
    label: English
    params:
      description: The OpenTelemetry Project Site
  fr:
    label: Français
"""


def page(title: str, weight: int | None = None, body: str = "", link: str = "") -> str:
    lines = [f"title: {title}"] + ([f"weight: {weight}"] if weight is not None else [])
    lines += [f"linkTitle: {link}"] if link else []
    return "---\n" + "\n".join(lines) + f"\n---\n\n{body or title + ' explains one part of it.'}\n"


def otel_like() -> dict[str, str | bytes]:
    en = "content/en/"
    return {
        "config/_default/hugo.yaml": CONFIG,
        "package-lock.json": "{}",
        "Makefile": "serve:\n\thugo serve\n",
        "archetypes/default.md": '---\ntitle: {{ replace .Name "-" " " | title }}\n---\n',
        "data/registry/x.yml": "name: x\n",
        en + "_index.md": page("OpenTelemetry"),
        en + "docs/_index.md": page("Documentation", 10, link="Docs"),
        en + "docs/concepts/_index.md": page(
            "OpenTelemetry Concepts",
            170,
            "Key concepts, and how to [get started](../getting-started/) or read the "
            "[signals](/docs/concepts/signals/).",
            link="Concepts",
        ),
        en + "docs/concepts/signals.md": page("Signals", 2),
        en + "docs/concepts/context.md": page("Context propagation", 1),
        en + "docs/concepts/context.fr.md": page("Propagation du contexte", 1),
        en + "docs/getting-started/_index.md": page("Getting Started", 160),
        en + "docs/getting-started/dev.md": '+++\ntitle = "Getting started for developers"\n'
        "weight = 3\ndate = 2024-01-02\n+++\n\nWrite your first traces.\n",
        en + "docs/demo/index.md": page("Demo", 180, "The demo {{% param title %}} shows it."),
        en + "docs/demo/screen.png": b"\x89PNG\r\n\x1a\n",
        en + "announcements/kubecon.md": page(
            "KubeCon 2026",
            body="{{% param title %}}\n\n[blog]: <{{% param blogPostURL %}}>\n"
            "[kubecon]: https://www.cncf.io/kubecon\n",
        ),
        # a headless bundle: snippets other pages include, never rendered as pages
        en + "_common/_index.md": "---\ncascade:\n  build:\n    list: never\n"
        "    render: never\n---\n\nFiles within this headless branch bundle are snippets.\n",
        en + "_common/glob-patterns.md": page("Glob patterns"),
        "content/fr/docs/_index.md": page("Documentation (fr)", 10),
        "content/fr/docs/concepts/_index.md": page("Concepts (fr)", 170),
    }


def test_the_sections_by_weight_are_the_sites_tree(tmp_path: Path) -> None:
    root = write_sources(tmp_path / "src", otel_like())
    files = source_files(root)
    toc = find_toc(files, lambda r: (root / r).read_text("utf-8"))
    assert toc is not None and toc.kind == "hugo" and toc.docs_dir == "content/en"
    order = [p.removeprefix("content/en/") for p in toc.order()]
    # weight first (none last), then title; a section's _index.md names and opens it; a
    # leaf bundle (demo/index.md) is a page
    assert order == [
        "docs/_index.md",
        "docs/getting-started/_index.md",
        "docs/getting-started/dev.md",
        "docs/concepts/_index.md",
        "docs/concepts/context.md",
        "docs/concepts/signals.md",
        "docs/demo/index.md",
        "announcements/kubecon.md",
    ]
    assert toc.sections()["content/en/docs/concepts/signals.md"] == ["Docs", "Concepts"]
    assert hugo_about("config/_default/hugo.yaml", CONFIG) == (
        "OpenTelemetry",
        "The OpenTelemetry Project Site",
    )
    # another tool's config.yaml (no key only Hugo's has) is no site
    assert hugo_about("config.yaml", "rules:\n  - a\n") is None


def test_a_hugo_repository_builds_its_default_languages_content(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", otel_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    docs = sorted(pkg.documents)
    assert not [d for d in docs if "lock" in d or "makefile" in d.lower() or "registry" in d]
    assert not [d for d in docs if "fr" in d.split("/")[0] or "archetype" in d]
    assert not [d for d in docs if d.endswith(".fr.md") or "context-fr" in d]
    assert not [d for d in docs if "common" in d or "glob" in d], docs
    assert any("named by their language" in n for n in result.notes), result.notes
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# OpenTelemetry"
    docs_index = parse_index((tmp_path / "kb" / "docs" / "index.md").read_text("utf-8"))
    assert [e.title for e in docs_index.entries][:3] == [
        "Documentation",
        "Getting Started",
        "Concepts",  # the section's linkTitle: its name in the site's menus
    ]
    # TOML front matter is the page's own: its title, its date as text
    dev = next(d for d in docs if d.endswith("dev.md"))
    parsed = fm.parse((tmp_path / "kb" / dev).read_text("utf-8"))
    assert parsed is not None and parsed.data["title"] == "Getting started for developers"
    # relative links as Hugo serves the page (concepts/_index.md at /docs/concepts/),
    # site-absolute ones from the content folder: none broken
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken


def test_shortcodes_and_link_definitions_are_no_words() -> None:
    text = "{{% param title %}}\n\n[blog]: <{{% param blogPostURL %}}>\n[k]: https://k.io\n"
    assert [b.text for b in prose.blocks(text)] == []
    said = [b.text for b in prose.blocks('The demo {{< figure src="a.png" >}} shows it.\n')]
    assert said == ["The demo shows it."]


def test_a_content_folder_built_alone_says_where_its_site_config_is(tmp_path: Path) -> None:
    """hugoDocs' ``content/`` (or mkdocs-material's ``docs/``) built alone: its site's
    config sits in the folder above, and nothing said so."""
    source = write_sources(tmp_path / "site", otel_like())
    result = build(source / "content" / "en", tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    said = [n for n in result.notes if "configures the site this folder is part of" in n]
    assert said == [
        "../../config/_default/hugo.yaml configures the site this folder is part of: its "
        "structure (navigation, names, which files are pages) was not read; build "
        f"{source.resolve()} to have it"
    ]


def test_a_content_folder_built_alone_names_the_hugo_config_above_it(tmp_path: Path) -> None:
    """grpc/grpc.io keeps an older ``config.yaml`` at its root: its ``content/`` built
    alone said nothing of it (a ``config.yaml`` may be any tool's, and only Hugo's
    ``hugo.*`` names were looked for)."""
    files = {
        "config.yaml": "baseURL: https://grpc.io/\ntitle: gRPC\ncontentDir: content/en\n",
        "content/en/_index.md": "---\ntitle: gRPC\n---\n\nA high performance RPC framework.\n",
        "content/en/about.md": "---\ntitle: About\n---\n\nWho makes gRPC.\n",
    }
    source = write_sources(tmp_path / "src", files)
    result = build(source / "content", tmp_path / "kb", now=NOW)
    assert any(n.startswith("../config.yaml configures the site") for n in result.notes)
    other = write_sources(tmp_path / "other", {**files, "config.yaml": "rules:\n  - no-tabs\n"})
    result = build(other / "content", tmp_path / "kb2", now=NOW)
    assert not any("configures the site" in n for n in result.notes)


def test_hugos_layout_type_is_no_okf_type(tmp_path: Path) -> None:
    """Hugo's ``type`` front-matter key picks the layout a page is drawn with (Docsy
    sets ``type: docs`` on every page): it was taken as the page's OKF type, so a
    troubleshooting page became ``type: docs`` and every folder "mostly docs"."""
    files = otel_like()
    files["content/en/docs/concepts/signals.md"] = (
        "---\ntitle: Fix a collector that drops spans\ntype: docs\nweight: 2\n---\n\n"
        "## Symptoms\n\nThe collector logs `dropping data` and spans go missing.\n\n"
        "## Cause\n\nThe queue is full.\n\n## Resolution\n\nRaise `queue_size` and restart.\n"
    )
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    written = next((tmp_path / "kb").rglob("signals.md")).read_text("utf-8")
    parsed = fm.parse(written)
    assert parsed is not None
    meta = parsed.data
    assert meta["type"] != "docs"
    assert meta["hugo_type"] == "docs"  # Hugo's word kept, under its name, in its place
    assert list(meta)[:4] == ["type", "description", "title", "hugo_type"]


def test_a_site_named_only_in_its_default_language_is_named_so() -> None:
    """grpc/grpc.io gives its title and description under ``languages.en`` only: the
    package was titled by its folder's name ("Grpc+grpc.io")."""
    config = (
        "baseURL: https://grpc.io/\ntheme: [docsy]\nlanguages:\n  en:\n    title: gRPC\n"
        "    description: A high-performance, open source universal RPC framework\n"
        "    contentDir: content/en\n"
    )
    assert hugo_about("config.yaml", config) == (
        "gRPC",
        "A high-performance, open source universal RPC framework",
    )


def test_a_hugo_site_in_a_folder_of_its_own_is_found(tmp_path: Path) -> None:
    """google/docsy keeps its own site in ``docsy.dev/`` (``config/_default/hugo.yaml``)
    beside the theme: the whole repository was built, its 96 Go templates documents and
    the package titled by the repository's folder."""
    files = {
        "layouts/partials/navbar.html": '<nav>{{ partial "search-input.html" . }}</nav>\n',
        "package.json": "{}",
        "docsy.dev/config/_default/hugo.yaml": "baseURL: https://www.docsy.dev\ntitle: Docsy\n",
        "docsy.dev/config/_default/params.yaml": "description: Docsy does docs\n",
        "docsy.dev/content/en/_index.md": page("Docsy"),
        "docsy.dev/content/en/docs/_index.md": page("Documentation", 10),
        "docsy.dev/content/en/docs/get-started.md": page("Get started", 1),
    }
    source = write_sources(tmp_path / "src", files)
    toc = find_toc(source_files(source), lambda r: (source / r).read_text("utf-8"))
    assert toc is not None and toc.kind == "hugo" and toc.docs_dir == "docsy.dev/content/en"
    build(source, tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert not any("navbar" in p for p in pkg.documents)
    assert (tmp_path / "kb" / "index.md").read_text("utf-8").splitlines()[3] == "# Docsy"


def test_a_link_relative_to_the_pages_folder_finds_the_page_as_hugo_does(tmp_path: Path) -> None:
    """Hugo's link render hook (on by default for a multilingual site) finds a linked
    page from the page's folder, as ``.GetPage`` does: docsy.dev's ``[sc]:
    ../2022/hello/`` in ``blog/2023/priorities.md`` is ``blog/2022/hello.md``; read from
    the page's URL instead (``/blog/2023/priorities/``), 28 of its links were broken."""
    files = otel_like()
    files["content/en/blog/_index.md"] = page("Blog", 30)
    files["content/en/blog/2022/hello.md"] = page("Hello", body="The first post.")
    files["content/en/blog/2023/priorities.md"] = page(
        "Priorities",
        body="As [said before][sc], and [the context](../../docs/concepts/context/)."
        "\n\n[sc]: ../2022/hello/\n",
    )
    build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert not any("hello" in b or "context" in b for b in broken), broken
