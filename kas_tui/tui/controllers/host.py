"""The app as its controllers see it: :class:`Host`.

:class:`~kas_tui.tui.app.KasApp` constructs the controllers and holds them; each takes
the app in its constructor, and the controllers it works with. They name the app by
this protocol, not by its class: the app imports them, so importing the app back (even
for type checking only) would be an import cycle (``tests/test_import_cycles.py``
counts every import). ``tests/test_tui_controllers.py`` checks that the app has every
member named here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.signal import Signal
    from textual.timer import Timer
    from textual.widget import Widget
    from textual.worker import Worker

    from kas_tui.core.foreground import Foreground
    from kas_tui.core.package import Package

W = TypeVar("W")


class Host(Protocol):
    """What the controllers use of the app: its package and day, and Textual's app."""

    package: Package
    today: dt.date
    #: Where a harness finds SKILL.md, as the catalog entry names it (see KasApp).
    catalog_location: str | None
    sub_title: str
    foreground: Foreground

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    @property
    def focused(self) -> Widget | None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def replace_package(self, package: Package) -> None: ...

    def push_screen(
        self, screen: Screen[Any], callback: Callable[[Any], Any] | None = None
    ) -> Any: ...

    @overload
    def query_one(self, selector: str) -> Widget: ...

    @overload
    def query_one(self, selector: type[W]) -> W: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Timer: ...

    def run_worker(
        self,
        work: Callable[[], Any],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[Any]: ...

    def suspend(self) -> AbstractContextManager[None]: ...

    def refresh_bindings(self) -> None: ...

    def clear_notifications(self) -> None: ...

    @property
    def screen_change_signal(self) -> Signal[Screen[Any]]: ...

    def open_url(self, url: str, *, new_tab: bool = True) -> None: ...
