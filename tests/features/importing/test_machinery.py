"""A repository's build and tool files are left out of a build, unless a page links to
one: k3d's CUDA guide explains the ``Dockerfile`` beside it and links to it
(``[Dockerfile](cuda/Dockerfile)``); left out, the link was counted broken."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from kas_tui.features.importing.machinery import without_machinery
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)


def test_a_tool_file_a_page_links_to_is_kept_the_rest_left_out(tmp_path: Path) -> None:
    files = {
        "mkdocs.yml": "site_name: k3d\n",
        "docs/index.md": "# k3d\n\nk3d runs k3s in Docker.\n",
        "docs/requirements.txt": "mkdocs-material==9.5\n",
        "docs/usage/cuda.md": "# CUDA\n\nBuild the image from the "
        "[Dockerfile](cuda/Dockerfile) and push it.\n",
        "docs/usage/cuda/Dockerfile": "FROM nvidia/cuda:12.2.0-base-ubuntu22.04\n",
        "docs/usage/other/Makefile": "all:\n\tmake image\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW)
    pkg = Package(tmp_path / "kb")
    pkg.load()
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == []
    copied = [p.name.lower() for p in (tmp_path / "kb").rglob("*") if p.is_file()]
    assert "dockerfile" in copied and "makefile" not in copied
    assert not any("requirements" in p for p in copied)
    assert (
        "2 build and tool files (docs/requirements.txt, ...) configure the repository, "
        "no knowledge; left out"
    ) in [n.removeprefix("note: ") for n in result.notes]


def test_a_word_in_prose_is_no_link() -> None:
    """A page saying "run the Makefile" does not keep it: only a link's or an include's
    path does."""
    pages = {"docs/build.md": "Run the Makefile to build: `make html`.\n"}
    documents, assets = without_machinery(
        ["docs/build.md", "docs/Makefile"], [], notes := [], pages.get
    )
    assert documents == ["docs/build.md"] and assets == []
    assert len(notes) == 1


def test_services_settings_and_spelling_word_lists_are_left_out() -> None:
    """encode/django-rest-framework built whole (no site config) made its
    ``codecov.yml`` a "Data" document and its ``codespell-ignore-words.txt`` a page
    titled "Tim assertIn IAM endcode deque..."; jupyterhub's sphinxcontrib-spelling
    list was a page "Spelling wordlist" described "Afterwards alchemyst alope api"."""
    files = [
        "docs/index.md",
        "codecov.yml",
        "codespell-ignore-words.txt",
        "docs/source/spelling_wordlist.txt",
        "docker-compose.yml",
        "docs/spelling-rules.txt",  # a page on spelling is knowledge
        "docs/words.txt",
    ]
    documents, _assets = without_machinery(files, [], notes := [])
    assert documents == ["docs/index.md", "docs/spelling-rules.txt", "docs/words.txt"]
    assert notes == [
        "4 build and tool files (codecov.yml, ...) configure the repository, no knowledge; left out"
    ]


def test_a_docs_build_version_map_is_left_out() -> None:
    """MicrosoftDocs/PowerShell-Docs' ``reference/mapping/monikerMapping.json`` (which
    TOC each version reads) was a "Data" document in a bundle "Mapping"."""
    files = ["reference/index.md", "reference/mapping/monikerMapping.json"]
    documents, _assets = without_machinery(files, [], notes := [])
    assert documents == ["reference/index.md"]
    assert notes and "monikerMapping.json" in notes[0]


def test_instructions_to_coding_agents_are_left_out() -> None:
    """vitest's ``docs/AGENTS.md`` ("Guidance for working on the VitePress site in
    docs/") was a page of its package."""
    files = ["docs/index.md", "docs/AGENTS.md", "CLAUDE.md", "docs/agents-overview.md"]
    documents, _assets = without_machinery(files, [], notes := [])
    assert documents == ["docs/index.md", "docs/agents-overview.md"]
    assert notes and "AGENTS.md" in notes[0]


def test_a_page_named_agents_whose_frontmatter_titles_it_is_a_page() -> None:
    """gitlab-handbook-ja's ``zendesk/users/agents.md`` ("エージェント", the support
    desk's agents) was left out as a coding agent's instructions."""
    texts = {
        "zendesk/users/agents.md": "---\ntitle: 'エージェント'\n---\n\nZendesk のエージェント。\n",
        "AGENTS.md": "# Guidance for coding agents\n\nRun the tests first.\n",
    }
    documents, _assets = without_machinery([*texts, "zendesk/users/_index.md"], [], [], texts.get)
    assert documents == ["zendesk/users/agents.md", "zendesk/users/_index.md"]


def test_a_file_named_as_a_tools_that_says_it_is_a_page_is_a_page(tmp_path: Path) -> None:
    """The Azure CLI reference (a docfx site) has a page for each command group:
    ``apic/environment.yml`` is ``az apic environment``, a ``### YamlMime:AzureCLIGroup``
    page, no conda environment; it was left out as a tool file."""
    group = (
        "### YamlMime:AzureCLIGroup\nuid: az_apic_environment\nname: az apic environment\n"
        "summary: |-\n  Commands to manage environments in API Center.\n"
    )
    files = {
        "apic/environment.yml": group,
        "apic/service.yml": group.replace("environment", "service"),
        "binder/environment.yml": "name: docs\nchannels: [conda-forge]\ndependencies: [python]\n",
    }
    notes: list[str] = []
    documents, _assets = without_machinery(list(files), [], notes, files.get)
    assert documents == ["apic/environment.yml", "apic/service.yml"]
    assert notes == [
        "1 build and tool file (binder/environment.yml) configures the repository, no "
        "knowledge; left out"
    ]
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert not result.failed, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert any(d.endswith("environment.md") for d in pkg.documents), sorted(pkg.documents)


def test_clojure_tool_files_are_left_out() -> None:
    """logseq/docs' ``bb.edn`` (babashka's tasks) was a page "Bb" at the package root,
    described "Tasks {nbb {:doc "Run any nbb-logseq command" ..."."""
    files = ["pages/Index.md", "bb.edn", "script/deps.edn", "whiteboards/board.edn"]
    documents, _assets = without_machinery(files, [], notes := [])
    assert documents == ["pages/Index.md", "whiteboards/board.edn"]
    assert len(notes) == 1


def test_a_logseq_graphs_own_folder_is_left_out() -> None:
    """logseq/docs' ``logseq/config.edn`` was a page "{:text-formats [],
    :all-pages-public? true ...", its ``metadata.edn`` another, in a bundle "Logseq". A
    folder named so without the app's config is a folder of pages."""
    files = ["pages/Index.md", "logseq/config.edn", "logseq/metadata.edn", "docs/logseq/guide.md"]
    documents, assets = without_machinery(files, ["logseq/custom.css"], notes := [])
    assert documents == ["pages/Index.md", "docs/logseq/guide.md"] and assets == []
    assert notes == [
        "3 build and tool files (logseq/config.edn, ...) configure the repository, no "
        "knowledge; left out"
    ]


def test_a_javascript_package_kept_in_the_source_is_left_out() -> None:
    """CS-Notes keeps Prism in ``docs/_style/prism-master/``: its 1,143 ``.test``
    fixtures and 182 example pages were 1,329 of the package's 1,507 documents. A
    package folder with pages of its own (a monorepo's documented package) stays."""
    files = [
        "notes/java.md",
        "docs/index.html",
        "docs/_style/prism-master/package.json",
        "docs/_style/prism-master/README.md",
        "docs/_style/prism-master/CHANGELOG.md",
        "docs/_style/prism-master/prism.js",
        "docs/_style/prism-master/tests/languages/java/keyword.test",
        "docs/_style/prism-master/examples/prism-java.html",
        "packages/cli/package.json",
        "packages/cli/README.md",
        "packages/cli/docs/usage.md",
    ]
    documents, assets = without_machinery(files, [], notes := [])
    assert documents == ["notes/java.md", "docs/index.html"] + files[-2:] and assets == []
    assert notes[0] == (
        "docs/_style/prism-master/: a JavaScript package kept in the source (its package.json, "
        "6 files: its code, tests and examples), no knowledge; left out"
    )


def test_tool_settings_schemas_and_browser_files_are_left_out() -> None:
    """pinia's ``typedoc.tsconfig.json``, sourcegraph's ``public/opensearch.xml``, hexo's
    ``browserconfig.xml`` were "Data" pages."""
    notes: list[str] = []
    tools = [
        "typedoc.tsconfig.json",
        "public/opensearch.xml",
        "source/browserconfig.xml",
        "site.webmanifest",
        ".eslintrc.json",
    ]
    docs, _assets = without_machinery(
        ["guide.md", "data/teams.json", *tools], [], notes, lambda _rel: ""
    )
    assert docs == ["guide.md", "data/teams.json"]
    assert notes and "configure the repository" in notes[0]


def test_stylesheets_of_every_kind_are_no_pages() -> None:
    from kas_tui.features.importing.source_meta import is_source_code

    for name in ("themes/navy/source/css/navy.styl", "x/_variables.sass", "a.scss", "b.less"):
        assert is_source_code(name)


def test_r_quarto_and_latex_project_files_are_left_out() -> None:
    """adv-r, r4ds and quarto-web built DESCRIPTION, their .Rproj, book.bib, krantz.cls,
    _output.yml, Quarto's profiles and its _freeze/ cache as pages (_bookdown.yml is the
    book's table of contents)."""
    tools = [
        "DESCRIPTION",
        "NAMESPACE",
        "adv-r.Rproj",
        "book.bib",
        "krantz.cls",
        "chicago-fullnote-bibliography.csl",
        "_output.yml",
        "_quarto-prerelease.yml",
        "src/Makevars",
        "_freeze/arrow/execute-results/html.json",
    ]
    docs, _assets = without_machinery(["arrow.Rmd", "intro.qmd", *tools], [], [], lambda _r: "")
    assert docs == ["arrow.Rmd", "intro.qmd"]
