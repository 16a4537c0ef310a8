"""The footer every screen uses: compact when the terminal is narrow, and never cut.

When a screen's keys do not fit on one line, the footer leaves out keys from the end of
the list (a screen lists its most used first) rather than letting the line run off the
edge, where Textual cuts the last key mid-word and lets the palette key cover it. Help
(``?``), find (``/``), closing and quitting are never left out: ``?`` lists every key of
the screen, ``/`` finds any page from anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: Narrower than this, the keys lose their padding so that all of them, Quit included, fit
#: (the main screen's keys need 108 columns with padding, 96 without).
COMPACT_BELOW = 110
#: Keys always shown: help, find, the command palette, closing and quitting.
KEPT_KEYS = frozenset({"question_mark", "ctrl+p", "escape", "q", "ctrl+q"})
KEPT_ACTIONS = ("help", "find", "quit", "close", "dismiss", "command_palette")


def kept(key: FooterKey) -> bool:
    action = key.action.rsplit(".", 1)[-1].split("(", 1)[0]
    return key.key in KEPT_KEYS or action in KEPT_ACTIONS


def key_width(key: FooterKey, compact: bool) -> int:
    """The cells ``key`` takes in the footer (as Textual's footer styles lay it out)."""
    described = cell_len(key.description)
    if key.has_class("-command-palette"):  # docked right, after a one-cell border
        return 1 + cell_len(key.key_display) + 1 + described + (0 if compact else 1)
    if compact:  # key, a space, the description, a margin
        return cell_len(key.key_display) + (1 + described if described else 0) + 1
    return cell_len(key.key_display) + 2 + (described + 1 if described else 0)


def fitting(keys: list[FooterKey], room: int, compact: bool) -> set[FooterKey]:
    """The keys to leave out so the rest fit in ``room`` cells: from the end of the list,
    never help, find, the palette, closing or quitting."""
    total = sum(key_width(key, compact) for key in keys)
    left_out: set[FooterKey] = set()
    for key in reversed(keys):
        if total <= room:
            break
        if not kept(key):
            left_out.add(key)
            total -= key_width(key, compact)
    return left_out


class KasFooter(Footer):
    """Textual's footer, compact below :data:`COMPACT_BELOW` columns, cut to fit."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.left_out: list[str] = []  # the keys left out for want of room (``?`` lists them)
        self._composed: tuple | None = None  # what the keys showed when last composed

    def on_resize(self, event: events.Resize) -> None:
        compact = event.size.width < COMPACT_BELOW
        if compact != self.compact or event.size.width != getattr(self, "_laid_for", None):
            self.compact = compact
            self._laid_for = event.size.width
            self.refresh(recompose=True)

    async def recompose(self) -> None:
        """Compose the keys again only when what they show changed: Textual asks after
        every change of focus, and each time its footer mounted every key afresh (4
        times while the main screen opens, 3 of them for the same keys)."""
        shown = self._shown()
        if shown is not None and shown == self._composed:
            return
        self._composed = shown
        await super().recompose()

    def _shown(self) -> tuple | None:
        """What the keys would show: the width, the screen's shown bindings and their state."""
        if not getattr(self, "_bindings_ready", False) or not self.is_attached:
            return None
        bindings = tuple(
            (binding.key, binding.description, binding.action, binding.group, enabled, tooltip)
            for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )
        return (self.size.width, self.compact, self.show_command_palette, bindings)

    def compose(self) -> ComposeResult:
        items: list[Widget] = list(super().compose())
        width = self.size.width or self.app.size.width
        keys = [w for w in items if isinstance(w, FooterKey)]
        dropped = fitting(keys, width, width < COMPACT_BELOW)
        self.left_out = [key.key for key in keys if key in dropped]
        yield from _without(items, dropped)


def _without(items: Iterable[Widget], dropped: set[FooterKey]) -> Iterable[Widget]:
    return (item for item in items if item not in dropped)
