"""A source named in another script (Hangul, as the Korean help of Obsidian names its
folders and pages): its names are spelled in Latin letters, its folders stay apart, and
a folder too large for one index is split, or left whole with a note, but never split
for ever."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

from kas_tui.core.okf.index import parse_index
from kas_tui.features.importing.build import build
from tests.helpers.build_sources import article, write_sources

NOW = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.timezone.utc)
#: Words of a note-taking app's help, in Korean: notes, plugins, sync, publish, edit,
#: format, links, files, folders, themes, search, graph.
WORDS = [
    "노트",
    "플러그인",
    "동기화",
    "게시",
    "편집",
    "서식",
    "링크",
    "파일",
    "폴더",
    "테마",
    "검색",
    "그래프",
]


def _page(title: str, words: str) -> str:
    description = f"{title} 기능을 설정하고 {words} 문제를 해결하는 방법을 설명합니다."
    body = f"# {title}\n\n{words} 설정을 엽니다. {title}을 선택합니다.\n"
    return article(title, description, body)


def test_folders_named_in_hangul_stay_apart(tmp_path: Path) -> None:
    """ "플러그인/" (plugins) and "시작하기/" (getting started) both slug to nothing.
    They were one folder, "folder", holding both folders' pages."""
    files = {f"플러그인/{w} 플러그인.md": _page(f"{w} 플러그인", w) for w in WORDS[:4]} | {
        f"시작하기/{w} 시작.md": _page(f"{w} 시작", w) for w in WORDS[4:8]
    }
    source = write_sources(tmp_path / "src", files)
    out = tmp_path / "help"
    build(source, out, now=NOW, workers=1)
    record = json.loads((out / ".kas-build.json").read_text(encoding="utf-8"))
    folder_of = {src: doc["path"].rsplit("/", 1)[0] for src, doc in record["documents"].items()}
    plugins = {folder_of[s] for s in folder_of if s.startswith("플러그인/")}
    starting = {folder_of[s] for s in folder_of if s.startswith("시작하기/")}
    assert len(plugins) == 1 and len(starting) == 1
    assert plugins != starting
    for folder in plugins | starting:
        entries = parse_index((out / folder / "index.md").read_text(encoding="utf-8")).entries
        assert len(entries) == 4


def test_names_in_another_script_are_spelled_in_latin_letters(tmp_path: Path) -> None:
    """Files and folders named in Hangul or Cyrillic keep their names, spelled in Latin
    letters as slugs are: they were ``folder``, ``folder-2``, ``document-2``..., names
    that say nothing of what they hold."""
    files = {
        "플러그인/동기화 플러그인.md": _page("동기화 플러그인", "동기화"),
        "플러그인/검색 플러그인.md": _page("검색 플러그인", "검색"),
        "Настройка/Сервер.md": article(
            "Сервер", "Как настроить сервер.", "# Сервер\n\nОткройте настройки.\n"
        ),
        "Настройка/Резервное копирование.md": article(
            "Резервное копирование", "Как сделать копию.", "# Копия\n\nНажмите «Копия».\n"
        ),
    }
    source = write_sources(tmp_path / "src", files)
    out = tmp_path / "help"
    build(source, out, now=NOW, workers=1)
    record = json.loads((out / ".kas-build.json").read_text(encoding="utf-8"))
    paths = {src: doc["path"] for src, doc in record["documents"].items()}
    assert paths["플러그인/동기화 플러그인.md"] == "peulleogeuin/donggihwa-peulleogeuin.md"
    assert paths["플러그인/검색 플러그인.md"] == "peulleogeuin/geomsaeg-peulleogeuin.md"
    assert paths["Настройка/Сервер.md"] == "nastroyka/server.md"
    assert paths["Настройка/Резервное копирование.md"] == "nastroyka/rezervnoe-kopirovanie.md"
    # the titles stay as the source writes them
    entries = parse_index((out / "nastroyka" / "index.md").read_text(encoding="utf-8")).entries
    assert {e.title for e in entries} == {"Сервер", "Резервное копирование"}


_BUILD_IN_ITS_OWN_PROCESS = """
import datetime as dt, sys
from pathlib import Path
from kas_tui.features.importing.build import build
now = dt.datetime(2026, 12, 7, 9, 0, tzinfo=dt.timezone.utc)
result = build(Path(sys.argv[1]), Path(sys.argv[2]), now=now, workers=1, index_budget=1200)
print(len(result.created))
for note in result.notes:
    print("note:", note)
"""


def test_an_over_budget_folder_of_hangul_titles_is_split_and_ends(tmp_path: Path) -> None:
    """A hundred pages whose titles and descriptions are Hangul, in one folder over the
    index budget: every group's label slugged to the same name, so the split put every
    page in one sub-folder, over the budget again one level deeper, for ever (the build
    of Obsidian's help never ended). Run in a process of its own, so a hang fails."""
    files = {}
    for n in range(100):
        first, second = WORDS[n % len(WORDS)], WORDS[(n * 5 + 3) % len(WORDS)]
        files[f"도움말/{first} {second} {n}.md"] = _page(f"{first} {second} 안내 {n}", second)
    source = write_sources(tmp_path / "src", files)
    out = tmp_path / "help"
    done = subprocess.run(
        [sys.executable, "-c", _BUILD_IN_ITS_OWN_PROCESS, str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "100"
    depth = max(len(p.relative_to(out).parts) for p in out.rglob("*.md"))
    assert depth <= 4, "no chain of folders each holding the one below"
    for index in out.rglob("index.md"):
        entries = parse_index(index.read_text(encoding="utf-8")).entries
        subs = [e for e in entries if e.target.endswith("/index.md") or e.target.endswith("/")]
        assert len(subs) != 1 or len(entries) > 1, f"{index}: one sub-folder and nothing else"
