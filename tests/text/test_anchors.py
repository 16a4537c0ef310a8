"""A heading's anchor, as the package's links write it and the TUI finds it."""

from __future__ import annotations

from textual._slug import TrackedSlugs

from kas_tui.text.anchors import Anchors, anchor

HEADINGS = [
    "Capacity planning",
    "Oversubscribed CPU is okay, running out of memory is bad",
    "Custom <div> blocks",
    "Migrating to jupyter-book>=0.14",
    "What's new in 5.0?",
    "snake_case and kebab-case",
    "Café crème",
    "🚀 Launch",
    "Setup",
    "Setup",
]


def test_anchors_are_githubs_as_the_tui_makes_them() -> None:
    assert anchor("Oversubscribed CPU is okay, running out of memory is bad") == (
        "oversubscribed-cpu-is-okay-running-out-of-memory-is-bad"
    )
    assert anchor("Café crème") == "caf%C3%A9-cr%C3%A8me"
    ours, textuals = Anchors(), TrackedSlugs()
    made = [ours.next(h) for h in HEADINGS]
    assert made == [textuals.slug(h) for h in HEADINGS]
    assert made[-2:] == ["setup", "setup-1"]
