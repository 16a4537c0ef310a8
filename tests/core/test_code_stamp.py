"""Cached findings are keyed on the code of the rules, not only the version number."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import kas_tui
from kas_tui.core.code_stamp import RULE_CODE, code_stamp, stamp_of


def test_editing_a_rule_module_changes_the_stamp(tmp_path: Path) -> None:
    base = tmp_path / "kas_tui"
    shutil.copytree(Path(kas_tui.__file__).parent, base)
    before = stamp_of(str(base))
    assert before == stamp_of(str(base))  # the same code, the same stamp
    rule = base / "features" / "check" / "engine.py"
    rule.write_text(rule.read_text() + "\n# a new rule\n")
    assert stamp_of(str(base)) != before
    tui = base / "tui" / "app.py"  # not rule code: a finding never depends on it
    after = stamp_of(str(base))
    tui.write_text(tui.read_text() + "\n# a new key\n")
    os.utime(tui)
    assert stamp_of(str(base)) == after


def test_the_stamp_starts_with_the_version_and_covers_the_rule_folders() -> None:
    assert code_stamp().startswith(f"{kas_tui.__version__}+")
    root = Path(kas_tui.__file__).parent
    assert all((root / folder).is_dir() for folder in RULE_CODE)
