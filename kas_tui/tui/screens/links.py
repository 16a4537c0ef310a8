"""The link picker: the page's links to follow, and what cites the page, both from the
keyboard."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from kas_tui.text.wording import counted

_KIND_STYLE = {"internal": "green", "external": "blue", "missing": "red", "outside": "red"}

_READING = Text("Cited by: reading the package's links…", style="dim")

#: A page citing this one: its path, the line of the link, and that line's text.
Citation = tuple[str, int, str]


class LinksScreen(ModalScreen[tuple[str, str] | None]):
    """Pick a link to follow or a page that cites this one.

    ``links`` are ``(text, href, kind)``: ``kind`` is ``internal``, ``missing``,
    ``external``, ``anchor`` or ``outside``, shown as a mark. ``cited_by`` are
    :data:`Citation`. Dismisses with ``("follow", href)``, ``("open", "path:line")`` or
    ``None``.
    """

    CSS_PATH = "links.tcss"
    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(
        self, links: list[tuple[str, str, str]], cited_by: list[Citation] | None = None
    ) -> None:
        super().__init__()
        self.links = links
        #: ``None`` while the package's links are still being read (see :meth:`cite`).
        self.cited_by: list[Citation] | None = None if cited_by is None else list(cited_by)

    def _title(self) -> str:
        cited = "…" if self.cited_by is None else len(self.cited_by)
        return f"Links from here ({len(self.links)}) · cited by {cited}"

    def compose(self) -> ComposeResult:
        with Vertical(id="links-box") as box:
            box.border_title = self._title()
            box.border_subtitle = "enter follows or opens · escape closes"
            options: list[Option | None] = [
                Option(
                    Text.assemble(
                        (f"{kind:<8} ", _KIND_STYLE.get(kind, "bright_black")),
                        (text or href, "bold"),
                        ("  → ", "bright_black"),
                        (href, "bright_black"),
                    ),
                    id=f"link-{i}",
                )
                for i, (text, href, kind) in enumerate(self.links)
            ]
            if self.cited_by is None:
                options += [None, Option(_READING, id="reading", disabled=True)]
            else:
                options += self._citations()
            yield OptionList(*options, id="links-list")

    def _citations(self) -> list[Option | None]:
        if not self.cited_by:
            return []
        heading = Text(f"Cited by {counted(len(self.cited_by), 'page')}", style="bold")
        return [
            None,
            Option(heading, disabled=True),
            *(
                Option(
                    Text.assemble(
                        ("cited by ", "magenta"),
                        (f"{source}:{line}", "bold"),
                        ("  ", ""),
                        (" ".join(said.split()), "bright_black"),
                    ),
                    id=f"cite-{i}",
                )
                for i, (source, line, said) in enumerate(self.cited_by)
            ),
        ]

    def cite(self, cited_by: list[Citation]) -> None:
        """The pages citing this one, once known: added below the links, in place (the
        highlighted link stays highlighted)."""
        self.cited_by = list(cited_by)
        options = self.query_one("#links-list", OptionList)
        highlighted = options.highlighted
        # the separator and the "reading" line go; the citations come
        options.remove_option_at_index(options.option_count - 1)
        while options.option_count > len(self.links):
            options.remove_option_at_index(options.option_count - 1)
        options.add_options(self._citations())
        options.highlighted = highlighted
        self.query_one("#links-box").border_title = self._title()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        kind, _, number = (event.option.id or "").partition("-")
        if kind == "link":
            self.dismiss(("follow", self.links[int(number)][1]))
        elif kind == "cite" and self.cited_by is not None:
            source, line, _ = self.cited_by[int(number)]
            self.dismiss(("open", f"{source}:{line}"))
