"""A Jekyll site with the Just the Docs theme, whose navigation is in its pages' front
matter (``parent``, ``grand_parent``, ``nav_order``), as just-the-docs/just-the-docs'
own site is: built, its Gemfile, gemspec and Rakefile were pages, its ``_layouts/``
a bundle, and its pages were ordered by title."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.core.package import Package
from kas_tui.features.importing.build import build
from kas_tui.features.importing.toc import find_toc
from tests.helpers.build_sources import source_files, write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def page(title: str, **front: object) -> str:
    lines = [f"title: {title}", *(f"{k}: {v}" for k, v in front.items())]
    return "---\n" + "\n".join(lines) + f"\n---\n\n{title} explains one part of the site.\n"


def site() -> dict[str, str | bytes]:
    return {
        "_config.yml": "title: Ops Handbook\nremote_theme: just-the-docs/just-the-docs\n"
        "exclude:\n  - scripts/\n",
        "Gemfile": 'source "https://rubygems.org"\ngem "jekyll"\n',
        "scripts/build.md": page("Build script notes"),
        "_includes/footer.html": "<footer>x</footer>",
        "index.md": page("Home", nav_order=1),
        "docs/zeta.md": page("Zeta setup", nav_order=2),
        "docs/navigation/index.md": page("Navigation", nav_order=3, has_children="true"),
        "docs/navigation/main.md": page("Main", parent="Navigation", nav_order=2),
        "docs/navigation/aux.md": page("Aux", parent="Navigation", nav_order=1),
        "docs/navigation/levels.md": page("Levels", parent="Main", grand_parent="Navigation"),
        "docs/orphan.md": page("Orphan", parent="Nowhere"),
        "docs/hidden.md": page("Hidden", nav_exclude="true"),
    }


def test_the_pages_front_matter_is_the_navigation(tmp_path: Path) -> None:
    root = write_sources(tmp_path / "src", site())
    files = source_files(root)
    toc = find_toc(files, lambda r: (root / r).read_text("utf-8"))
    assert toc is not None and toc.kind == "jekyll"
    assert list(toc.order()) == [
        "index.md",
        "docs/zeta.md",
        "docs/navigation/index.md",
        "docs/navigation/aux.md",
        "docs/navigation/main.md",
        "docs/navigation/levels.md",
        "docs/orphan.md",
    ]
    assert toc.sections()["docs/navigation/levels.md"] == ["Navigation", "Main"]
    assert toc.problems == [
        "docs/orphan.md:1: its parent 'Nowhere' is no page's title: it is listed at the "
        "top; fix the parent or title that page so"
    ]


def test_what_jekyll_does_not_publish_is_no_page(tmp_path: Path) -> None:
    result = build(write_sources(tmp_path / "src", site()), tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    pkg = Package(tmp_path / "kb")
    pkg.load()
    docs = sorted(pkg.documents)
    assert not [d for d in docs if "gemfile" in d or "script" in d or "footer" in d], docs
    root = parse_index((tmp_path / "kb" / "index.md").read_text("utf-8"))
    assert root.entries[0].title == "Home"
