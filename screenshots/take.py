"""Regenerate the README screenshots from demo_kb: python screenshots/take.py"""

from __future__ import annotations

import asyncio
import datetime as dt
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kas_tui.package import Package  # noqa: E402
from kas_tui.tui.app import KasApp  # noqa: E402


async def shoot(name: str, keys: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(HERE.parent / "demo_kb", Path(tmp) / "demo_kb")
        app = KasApp(Package.open(Path(tmp) / "demo_kb"), today=dt.date(2026, 11, 30))
        async with app.run_test(size=(160, 44)) as pilot:
            await pilot.press(*keys)
            await pilot.pause(0.5)
            svg = app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    png = HERE / f"{name}.png"
    subprocess.run(["rsvg-convert", svg, "-o", str(png)], check=True)
    Path(svg).unlink()
    print(png)


if __name__ == "__main__":
    asyncio.run(shoot("main", []))
    asyncio.run(shoot("document", ["down", "down", "enter", "down", "down"]))
