"""No text the TUI shows acts on the terminal (issue 30, item 8): a title, a file name and
a body line holding an escape sequence are shown with a control picture (␛)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from rich.text import Text
from textual.content import Content

from kas_tui.core.package import Package
from kas_tui.tui.app import KasApp
from kas_tui.tui.control_codes import pictures
from tests.helpers.waiting import pilot_wait_until

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "demo_kb" / "orbit-handbook"
NAME = "oncall/evil\x1b]0;pwned\x07.md"


def test_every_control_a_terminal_acts_on_is_shown_not_sent() -> None:
    every = "".join(chr(c) for c in [*range(32), *range(0x7F, 0xA0)])
    for shown in (Content(f"a{every}b").plain, Text(f"a{every}b").plain):
        assert not [c for c in shown if ord(c) < 32 and c not in "\t\n"], repr(shown)
        assert not [c for c in shown if 0x7F <= ord(c) < 0xA0], repr(shown)
        assert "␛" in shown and "␀" in shown
    assert pictures()[27] == "␛"


async def test_a_hostile_title_name_and_body_reach_the_screen_written_out(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    shutil.copytree(DEMO, root)
    (root / NAME).write_text(
        '---\ntype: Note\ntitle: "Evil \\e]0;pwned\\a title"\n'
        "description: A page with a hostile name.\n---\n"
        "body \x1b]0;bodypwn\x07 here \x1b[2J\n"
    )
    app = KasApp(Package.open(root), today=dt.date(2026, 12, 5), watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        app.go(NAME, reveal=True)

        def screen_text() -> str:
            strips = app.screen._compositor.render_strips()
            return "\n".join("".join(seg.text for seg in strip) for strip in strips)

        await pilot_wait_until(pilot, lambda: "bodypwn" in screen_text())
        shown = screen_text()
        assert "\x1b" not in shown and "\x07" not in shown
        assert "Evil ␛]0;pwned title" in shown  # the tree and the frontmatter pane
        assert "evil␛]0;pwned.md" in shown  # the path
        assert "body ␛]0;bodypwn here ␛[2J" in shown  # the body
