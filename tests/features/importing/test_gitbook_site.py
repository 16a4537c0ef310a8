"""A GitBook space synced to a repository, as BeefreeSDK/beefree-sdk-docs and
AxonIQ/reference-guide keep theirs: ``.gitbook.yaml`` (the pages' ``root``, a map of
moved pages), ``SUMMARY.md``, the uploaded images and specs in the hidden
``.gitbook/assets/``, and GitBook's blocks (``{% hint %}``, ``{% tabs %}``, ``{% embed
%}``) in the pages.

Built before, every image in ``.gitbook/assets`` was missing (a hidden folder: 28 of
beefree's 44 broken links, 19 of axon's 26), a page opening with a hint was described
by it ("Please note that ... paid plans. {% endhint %}"), and links to moved pages were
broken."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
GITBOOK_YAML = """\
root: ./docs/

redirects:
  configuration-parameters: getting-started/configuration.md
"""
SUMMARY = """\
# Table of contents

* [Introduction](README.md)

## Getting Started

* [Installation](getting-started/installation.md)
* [Configuration](getting-started/configuration.md)
* [Services options](getting-started/services-options.md)
"""


def gitbook_like() -> dict[str, str | bytes]:
    return {
        ".gitbook.yaml": GITBOOK_YAML,
        "README.md": "# Beefree SDK docs (the repository's README)\n\nEdit in GitBook.\n",
        "docs/SUMMARY.md": SUMMARY,
        "docs/README.md": "# Introduction\n\nBeefree SDK embeds an email builder in your app.\n",
        "docs/getting-started/installation.md": (
            "# Installation\n\nInstall the SDK, then read the [parameters](../configuration-parameters).\n\n"
            "![The builder](../.gitbook/assets/builder.png)\n\n"
            '{% embed url="https://www.youtube.com/watch?v=abc" %}\n'
        ),
        "docs/getting-started/configuration.md": (
            '# Configuration\n\n{% tabs %}\n{% tab title="JavaScript" %}\n'
            "Pass a config object to the builder.\n{% endtab %}\n{% endtabs %}\n"
        ),
        "docs/getting-started/services-options.md": (
            '# Services options\n\n{% hint style="info" %}\nPlease note that server-side '
            "configurations are only available on paid plans.\n{% endhint %}\n\n"
            "Services options turn the builder's media, layout and personalization features on "
            "or off.\n"
        ),
        "docs/.gitbook/assets/builder.png": b"\x89PNG\r\n\x1a\nfake",
        "docs/.gitbook/assets/sms-endpoint.yaml": "openapi: 3.0.0\npaths: {}\n",
    }


def test_a_gitbook_space_builds_with_its_uploads_and_blocks(tmp_path: Path) -> None:
    result = build(
        write_sources(tmp_path / "src", gitbook_like()), tmp_path / "kb", now=NOW, workers=1
    )
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    # the pages of its root only; the uploads are files, the README outside the root too
    assert sorted(pkg.documents) == [
        "getting-started/configuration.md",
        "getting-started/installation.md",
        "getting-started/services-options.md",
        "readme.md",
    ]
    services = pkg.documents["getting-started/services-options.md"]
    assert services.meta["description"].startswith("Services options turn the builder")
    assert "{%" not in services.meta["description"]
    # the image in .gitbook/assets and the moved page's old address lead somewhere
    broken = [f.message for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
    assert broken == [], broken
    kept = source_files(tmp_path / "kb")
    assert any(p.endswith("builder.png") for p in kept)
    assert any(p.endswith("sms-endpoint.yaml") for p in kept)
    assert not any(p.endswith(".gitbook.yaml") for p in kept)


def test_the_summarys_readme_escapes_and_heading_anchors(tmp_path: Path) -> None:
    # Airstack-xyz/docs: "* [ℹ️ Introduction](README.md)" first (the repository README is
    # the space's home), "[ERROR\_001](errors/error\_001.md)", and part headings carrying
    # an anchor ("## Onchain Data <a href="#guides" id="guides"></a>")
    files = {
        "SUMMARY.md": "# Table of contents\n\n* [ℹ️ Introduction](README.md)\n* [Quickstart](quickstart.md)\n\n"
        '## Onchain Data <a href="#guides" id="guides"></a>\n\n'
        "* [ERROR\\_001](errors/error\\_001.md)\n* [Tokens](tokens.md)\n",
        "README.md": "# Introduction\n\nAirstack provides APIs for onchain data.\n",
        "quickstart.md": "# Quickstart\n\nGet an API key.\n",
        "errors/error_001.md": "# ERROR_001\n\nThe query failed.\n",
        "tokens.md": "# Tokens\n\nFetch token balances.\n",
    }
    result = build(write_sources(tmp_path / "src", files), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    assert not any("not in the book" in n for n in result.notes), result.notes
    pkg = Package(tmp_path / "kb")
    pkg.load()
    assert "Introduction" in {d.meta.get("title") for d in pkg.documents.values()}
    root = (tmp_path / "kb" / "index.md").read_text("utf-8")
    assert "## Onchain Data\n" in root and "<a href" not in root


def test_a_gitbook_page_is_named_by_its_summary_when_its_own_heading_is_a_section(
    tmp_path: Path,
) -> None:
    """0xn3va/cheat-sheets: 103 of 107 pages were titled by an H1 inside them
    ("Overview" 15 times, "References" 8), not by SUMMARY.md's labels."""
    source = write_sources(
        tmp_path / "src",
        {
            ".gitbook.yaml": "structure:\n  readme: INTRODUCTION.md\n  summary: SUMMARY.md\n",
            "SUMMARY.md": "# Summary\n\n- [Cheat Sheets](INTRODUCTION.md)\n"
            "- [Application Data & Files](android/app-data-files.md)\n"
            "- [Dependency Confusion](ci/dependency-confusion.md)\n"
            "- [Typosquatting](ci/typosquatting.md)\n",
            "INTRODUCTION.md": "# Cheat Sheets\n\nA list of cheat sheets for application security.\n",
            "android/app-data-files.md": "Android uses a file system that is similar to the "
            "disk-based file systems of other platforms.\n\nEvery app has its own private "
            "folder that no other app can read.\n\n# References\n\n- [Data storage](https://x)\n",
            "ci/dependency-confusion.md": "# Overview\n\nCompanies use internal registers "
            "for both internal and public dependencies.\n",
            "ci/typosquatting.md": "# Typosquatting\n\nAttackers publish packages named "
            "like popular ones.\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert {pkg.documents[p].title for p in pkg.documents} == {
        "Cheat Sheets",
        "Application Data & Files",
        "Dependency Confusion",
        "Typosquatting",  # its own title, which the label also says
    }


def test_an_mdbook_page_opening_with_its_own_heading_keeps_it(tmp_path: Path) -> None:
    """The Rust book's chapters open with ``## The `match` Control Flow Construct``, cargo's
    with ``## Deprecated and Removed Commands`` or ``# Glossary``: their own titles, not
    SUMMARY.md's shorter labels ("Deprecated and Removed", "Appendix: Glossary")."""
    source = write_sources(
        tmp_path / "src",
        {
            "book.toml": '[book]\ntitle = "The Book"\n',
            "src/SUMMARY.md": "# Summary\n\n- [Deprecated and Removed](deprecated.md)\n"
            "- [Appendix: Glossary](glossary.md)\n- [Intro](intro.md)\n",
            "src/deprecated.md": "## Deprecated and Removed Commands\n\nThese commands were "
            "removed in early releases.\n",
            "src/glossary.md": "# Glossary\n\n## Artifact\n\nThe files a compilation makes.\n",
            "src/intro.md": "Welcome to the book, which teaches the language from the start.\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    assert {pkg.documents[p].title for p in pkg.documents} == {
        "Deprecated and Removed Commands",
        "Glossary",
        "Intro",  # no title of its own: the summary's
    }
