"""User settings: defaults, round trip, corrupt files."""

from __future__ import annotations

import json

import pytest

from kas_tui.core.settings import Settings, valid_reviewer


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("KAS_TUI_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"


def test_defaults_without_a_file():
    settings = Settings.load()
    assert settings.reviewer == "" and settings.log_edits is True


def test_round_trip(config_dir):
    Settings(reviewer="maria.chen", log_edits=False).save()
    assert Settings.load() == Settings(reviewer="maria.chen", log_edits=False)
    assert json.loads((config_dir / "settings.json").read_text())["reviewer"] == "maria.chen"
    assert not list(config_dir.glob(".settings-*"))


@pytest.mark.parametrize(
    "content", ["not json", "[1, 2]", '{"reviewer": 5, "log_edits": "yes"}', '{"reviewer": "a b"}']
)
def test_bad_files_give_the_defaults(config_dir, content):
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text(content)
    assert Settings.load() == Settings()


def test_reviewer_ids():
    assert valid_reviewer("maria.chen") is None
    assert valid_reviewer("ops@example.com") is None
    assert valid_reviewer("") and valid_reviewer("two words") and valid_reviewer("x" * 65)
    assert valid_reviewer("\x1b[31mred")
