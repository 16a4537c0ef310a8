"""Pages placed by their own front matter (``order:``, ``sidebar_position:``...) where no
site's config orders them: react-router's docs (2026-12-07), built from their folders,
were alphabetical ("API" before "Getting Started", "Actions" before "Installation")."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from kas_tui.features.importing.build import build
from kas_tui.features.importing.front_matter import front_matter_place
from tests.helpers.build_sources import write_sources


def _listed(index: str) -> list[str]:
    return re.findall(r"^\* \[([^\]]+)\]", index, re.M)


def test_a_folder_build_lists_pages_and_folders_in_their_own_order(tmp_path: Path) -> None:
    files = {
        "index.md": "---\ntitle: Home\n---\n\nThe router's docs.\n",
        "start/index.md": "---\ntitle: Getting Started\norder: 1\n---\n",
        "start/installation.md": "---\ntitle: Installation\norder: 1\n---\n\nInstall it.\n",
        "start/routing.md": "---\ntitle: Routing\norder: 2\n---\n\nRoutes map URLs.\n",
        "start/actions.md": "---\ntitle: Actions\norder: 3\n---\n\nActions mutate data.\n",
        "start/extras.md": "---\ntitle: Extras\n---\n\nPlaced by no number.\n",
        "api/index.md": "---\ntitle: API\norder: 2\n---\n",
        "api/hooks.md": "---\ntitle: Hooks\n---\n\nHooks read router state.\n",
    }
    out = tmp_path / "kb"
    build(write_sources(tmp_path / "src", files), out, now=dt.datetime(2026, 12, 7, tzinfo=dt.UTC))
    root = _listed((out / "index.md").read_text("utf-8"))
    assert root.index("Getting Started") < root.index("API")
    inner = _listed((out / "start" / "index.md").read_text("utf-8"))
    assert inner == ["Installation", "Routing", "Actions", "Extras"]


def test_a_place_is_a_number() -> None:
    assert front_matter_place({"order": 2}) == 2.0
    assert front_matter_place({"sidebar_position": "3"}) == 3.0
    assert front_matter_place({"order": True, "weight": 5}) == 5.0
    assert front_matter_place({"order": "first"}) is None
    assert front_matter_place({}) is None
