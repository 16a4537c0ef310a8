"""The mkdocs-include-markdown plugin's directives, as DiamondLightSource/developer-portal
and k3d-io/k3d write them: ``{%\\n    include-markdown "../common/entity-owner.md"\\n%}``
between a page's sections, and ``{%\\n  include-markdown "./cuda/Dockerfile"\\n
comments=false\\n%}`` inside a code fence. Built before, 23 of diamond's pages and k3d's
``cuda.md`` kept the directive where the site shows the file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.features.importing.build import build
from kas_tui.features.importing.include_markdown import expand_include_markdown
from tests.helpers.build_sources import write_sources

NOW = dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC)


def test_directives_show_the_files_they_name() -> None:
    files = {
        "docs/common/entity-owner.md": "---\ntitle: x\n---\nThe [owner](../explanations/owner.md) answers for it.\n",
        "docs/usage/cuda/Dockerfile": "FROM nvidia/cuda\nRUN apt-get update\n",
        "docs/common/parts.md": "intro\n<!--start-->\nOnly this part.\n<!--end-->\noutro\n",
    }
    text = (
        '# System Spec\n\n{%\n    include-markdown "../common/entity-owner.md"\n%}\n\n'
        '```Dockerfile\n{%\n  include-markdown "../usage/cuda/Dockerfile"\n  comments=false\n%}\n```\n\n'
        "{% include-markdown '../common/parts.md' start='<!--start-->' end='<!--end-->' %}\n\n"
        '{% include-markdown "../common/gone.md" %}\n'
        '```jinja\n{% include "partials/header.html" %}\n```\n'
    )
    shown, included, problems = expand_include_markdown(
        text, "docs/references/system.md", files.get
    )
    assert "The [owner](../explanations/owner.md) answers for it." in shown
    assert "title: x" not in shown
    assert "```Dockerfile\nFROM nvidia/cuda\nRUN apt-get update\n```" in shown
    assert "Only this part." in shown and "intro" not in shown and "outro" not in shown
    assert '{% include-markdown "../common/gone.md" %}' in shown
    assert '{% include "partials/header.html" %}' in shown  # Jinja's, in a theme's docs
    assert included == [
        "docs/common/entity-owner.md",
        "docs/usage/cuda/Dockerfile",
        "docs/common/parts.md",
    ]
    assert [(p.line, p.target) for p in problems] == [(16, "../common/gone.md")]


def test_a_changed_included_file_builds_the_page_again(tmp_path: Path) -> None:
    files = {
        "mkdocs.yml": "site_name: Portal\nnav:\n  - index.md\n  - spec.md\n",
        "docs/index.md": "# Portal\n\nThe developer portal.\n",
        "docs/spec.md": '# Spec\n\nThe fields.\n\n{%\n    include-markdown "common/owner.md"\n%}\n',
        "docs/common/owner.md": "The owner is a group.\n",
    }
    src = write_sources(tmp_path / "src", files)
    build(src, tmp_path / "kb", now=NOW, workers=1)
    assert "The owner is a group." in (tmp_path / "kb" / "spec.md").read_text("utf-8")
    (src / "docs" / "common" / "owner.md").write_text("The owner is a user.\n", "utf-8")
    result = build(src, tmp_path / "kb", now=NOW, workers=1)
    assert result.errors == 0, result.report
    assert "The owner is a user." in (tmp_path / "kb" / "spec.md").read_text("utf-8")
