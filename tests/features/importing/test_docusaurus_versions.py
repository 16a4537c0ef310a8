"""A Docusaurus site keeping versions serves its newest release at its docs' address,
its working ``docs/`` as "next" (prettier/prettier: ``versions.json`` is ``["stable"]``,
and ``docs/install.md`` writes ``prettier@%PRETTIER_VERSION%`` where the served
``versioned_docs/version-stable/install.md`` says 3.9.6). The build took the working
copy and left the served version out as "earlier"."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kas_tui.features.importing.build import build
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)
SIDEBARS = '{"docs": {"About": ["index", "install"], "Usage": ["cli"]}}'


def page(title: str, body: str) -> str:
    return f"---\ntitle: {title}\n---\n\n{body}\n"


def site(last_version: str) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        "website/docusaurus.config.js": "module.exports = {\n  presets: [['classic', {\n"
        f"    docs: {{\n      path: '../docs',\n      sidebarPath: './sidebars.json',\n"
        f"      {last_version}\n    }},\n  }}]],\n}};\n",
        "website/sidebars.json": SIDEBARS,
        "website/versions.json": '["2.0", "1.0"]',
    }
    for where, version in (
        ("docs", "%VERSION%"),
        ("website/versioned_docs/version-2.0", "2.0.1"),
        ("website/versioned_docs/version-1.0", "1.0.4"),
    ):
        files[f"{where}/index.md"] = page("Overview", "Sitefmt formats the files of a site.")
        files[f"{where}/install.md"] = page(
            "Install",
            f"Run `npm install sitefmt@{version}`, then see [the CLI](/docs/cli#options).",
        )
        files[f"{where}/cli.md"] = page(
            "CLI", f"The command line of sitefmt {version}.\n\n## Options"
        )
    for version in ("2.0", "1.0"):
        files[f"website/versioned_sidebars/version-{version}-sidebars.json"] = SIDEBARS
    return files


@pytest.mark.parametrize(
    ("last_version", "served", "left_out"),
    [
        # the working pages and the other version's, and its sidebars
        ("lastVersion: process.env.PR === 'true' ? 'current' : undefined,", "2.0.1", 7),
        ("lastVersion: '1.0',", "1.0.4", 7),
        ("lastVersion: 'current',", "%VERSION%", 8),
    ],
)
def test_the_version_the_site_serves_is_built(
    tmp_path: Path, last_version: str, served: str, left_out: int
) -> None:
    result = build(write_sources(tmp_path / "src", site(last_version)), tmp_path / "pkg", now=NOW)
    assert result.errors == 0, result.report
    install = next((tmp_path / "pkg").rglob("install.md")).read_text("utf-8")
    assert f"sitefmt@{served}" in install
    assert "](/cli.md#options)" in install  # /docs/cli: where the site serves it
    said = [n for n in result.notes if "left out" in n and "versions" in n]
    assert said and said[0].startswith(f"{left_out} files of the docs'"), result.notes
    if served != "%VERSION%":
        assert "the unreleased docs/, served as next" in said[0]
