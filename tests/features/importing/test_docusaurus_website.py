"""A Docusaurus site kept in ``website/`` beside a ``docs/`` folder, as jestjs/jest's
is: its sidebars, its config's docs ``path``, its pages' own ``id:`` and links by id."""

from __future__ import annotations

import datetime as dt
import posixpath
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.package import Package
from kas_tui.features.check import check
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)

CONFIG = """const path = require('path');
module.exports = {
  title: 'Testy',
  presets: [
    ['classic', {
      docs: {
        editUrl: ({locale}) => { if (locale) { return `x/${locale}`; } return 'y'; },
        path: '../docs',
        sidebarPath: path.resolve(__dirname, './sidebars.json'),
      },
    }],
  ],
};
"""
SIDEBARS = """{
  "docs": {
    "Introduction": ["getting-started", "using-matchers"],
    "Guides": ["snapshot-testing", "mock-functions"]
  }
}
"""


def _page(doc_id: str, title: str, text: str) -> str:
    return f"---\nid: {doc_id}\ntitle: {title}\n---\n\n{text}\n"


def _site(tmp_path: Path) -> Path:
    faq = "\n".join(f"## Why does case {n} fail?\n\nBecause.\n" for n in range(3))
    return write_sources(
        tmp_path / "src",
        {
            "website/docusaurus.config.js": CONFIG,
            "website/sidebars.json": SIDEBARS,
            "docs/GettingStarted.md": _page(
                "getting-started",
                "Getting Started",
                "Install Testy with your package manager, then see "
                "[matchers](using-matchers#equality) and [mocks](/docs/mock-functions).",
            ),
            "docs/UsingMatchers.md": _page(
                "using-matchers",
                "Using Matchers",
                "Testy uses matchers to test values.\n\n## Equality\n\nCompare values.",
            ),
            "docs/SnapshotTesting.md": _page(
                "snapshot-testing", "Snapshot Testing", "Snapshots catch changes.\n\n" + faq
            ),
            "docs/MockFunctions.md": _page(
                "mock-functions", "Mock Functions", "Mock functions stand in for real ones."
            ),
        },
    )


def test_a_site_in_website_reads_its_sidebars_config_and_ids(tmp_path: Path) -> None:
    out = tmp_path / "testy-kb"
    assert build(_site(tmp_path), out, now=NOW, workers=1).errors == 0
    pkg = Package(out)
    pkg.load()
    # the sidebars file is read for the tree, not made a document; the site's title
    assert not [p for p in pkg.documents if "sidebars" in p]
    assert "\n# Testy\n" in (out / "index.md").read_text("utf-8")
    # every page the sidebars name by id is placed by them
    assert {pkg.documents[p].title for p in pkg.documents} == {
        "Getting Started",
        "Using Matchers",
        "Snapshot Testing",
        "Mock Functions",
    }
    # links by id, relative to the page's URL (/docs/getting-started) and site-absolute
    start = next(p for p in pkg.documents if pkg.documents[p].title == "Getting Started")
    body = (out / start).read_text("utf-8")
    assert "using-matchers.md#equality" in body and "mock-functions.md" in body
    assert posixpath.basename(start) == "getting-started.md"  # its id, as the site serves it
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]


def test_two_faq_pages_do_not_make_their_siblings_faqs(tmp_path: Path) -> None:
    out = tmp_path / "testy-kb"
    assert build(_site(tmp_path), out, now=NOW, workers=1).errors == 0
    types = {}
    for path in out.rglob("*.md"):
        parsed = fm.parse(path.read_text("utf-8"))
        if parsed is not None and isinstance(parsed.data, dict) and "title" in parsed.data:
            types[parsed.data["title"]] = parsed.data.get("type")
    assert types["Snapshot Testing"] == "FAQ"  # three question headings
    assert types["Mock Functions"] == "Reference"  # no signal: not its sibling's type


def test_tocs_of_several_folders_do_not_order_the_whole(tmp_path: Path) -> None:
    """Two docsets side by side, each with its own toc.yml and none at the root: neither
    is the whole source's table of contents; the folders are the tree."""
    source = write_sources(
        tmp_path / "src",
        {
            "exchange/toc.yml": "- name: Mail flow\n  href: mail.md\n",
            "exchange/mail.md": "# Mail flow\n\nHow mail moves between servers and out.\n",
            "teams/toc.yml": "- name: Meetings\n  href: meet.md\n",
            "teams/meet.md": "# Meetings\n\nHow a meeting is scheduled and joined by guests.\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    assert (out / "exchange/mail.md").is_file() and (out / "teams/meet.md").is_file()
    root = (out / "index.md").read_text("utf-8")
    assert "\n## " not in root  # no TOC ordered it: not Teams under "Other pages"


def test_number_prefixes_are_dropped_as_the_site_drops_them(tmp_path: Path) -> None:
    """Docusaurus serves ``docs/03-Introduction/01-help.md`` at ``/docs/Introduction/help``:
    the folder is named as served, and a link written against that URL
    (``version-support-policy``) is the page ``05-version-support-policy.md``."""
    source = write_sources(
        tmp_path / "src",
        {
            "docusaurus.config.js": "module.exports = { title: 'Filament' };\n",
            "sidebars.js": "module.exports = { docs: [{type: 'autogenerated', dirName: '.'}] };\n",
            "docs/03-Introduction/01-help.md": "---\ntitle: Help\n---\n\nRead the "
            "[support policy](version-support-policy) and [how to help](contributing#dev).\n",
            "docs/03-Introduction/05-version-support-policy.md": "---\ntitle: Support policy\n"
            "---\n\nWhich versions get bug fixes, and for how long after a release.\n",
            "docs/03-Introduction/06-contributing.md": "---\ntitle: Contributing\n---\n\n"
            "How to send a change.\n\n## Dev\n\nClone the repository and run the tests.\n",
        },
    )
    out = tmp_path / "kb"
    assert build(source, out, now=NOW, workers=1).errors == 0
    assert (out / "introduction/help.md").is_file()
    body = (out / "introduction/help.md").read_text("utf-8")
    assert "(version-support-policy.md)" in body and "(contributing.md#dev)" in body
    pkg = Package(out)
    pkg.load()
    assert not [f for f in check(pkg, agent_ready=True).findings if f.code == "OKF120"]
