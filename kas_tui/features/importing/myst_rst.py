"""A MyST page's reStructuredText, read as a Sphinx page's is: its ``{eval-rst}`` blocks
and the directives only reStructuredText draws (```` ```{autoclass} ````,
``{autosummary}``, ``{currentmodule}``), where they had stayed as written: jupyterhub's
API pages, each ```` ```{eval-rst} ```` holding ``.. autoclass::``, showed the rST as
code and nothing of the classes.

The blocks of one page share what Sphinx's document shares: the current module a
``.. module::``, ``.. currentmodule::`` or ``.. automodule::`` set in an earlier block
(``.. autoclass:: Service`` after ``.. automodule:: jupyterhub.services.service``).
What a block cannot show is a note on the page's own line.
"""

from __future__ import annotations

import re
from pathlib import Path

from kas_tui.features.importing.convert import rst_fragment
from kas_tui.features.importing.convert_model import Limits
from kas_tui.features.importing.includes import IncludeProblem

#: A note of the reader: ``line 3: .. autoclass:: X is not shown: ...``.
_NOTE = re.compile(r"^line (\d+)(?: of ([^:]+))?: (.*)$", re.S)


class RstBlocks:
    """Reads one MyST page's reStructuredText blocks (a :data:`.myst_directives.RstReader`),
    collecting their notes in ``problems``."""

    def __init__(self, page: Path, limits: Limits) -> None:
        self.page = page
        self.limits = limits
        self.module = ""
        self.problems: list[IncludeProblem] = []

    def __call__(self, lines: list[str], at: int) -> list[str] | None:
        """``lines`` of reStructuredText (below the page's line ``at``) as Markdown."""
        try:
            markdown, notes, self.module = rst_fragment(
                "\n".join(lines), self.page, self.limits, self.module
            )
        except Exception as exc:  # docutils' own failure: said, the block as written
            self.problems.append(
                IncludeProblem(
                    at + 1,
                    "eval-rst",
                    f"its reStructuredText cannot be read ({exc}): left as written",
                )
            )
            return None
        for note in notes:
            said = _NOTE.match(note)
            if said is None:
                self.problems.append(IncludeProblem(at + 1, "eval-rst", note))
                continue
            n, other, message = int(said.group(1)), said.group(2), said.group(3)
            if other:  # in a file the block includes: the block's line, and where
                self.problems.append(
                    IncludeProblem(at + 1, "eval-rst", f"line {n} of {other}: {message}")
                )
            else:  # a line of the block: the page's
                line = at + max(1, n)
                self.problems.append(IncludeProblem(line, "eval-rst", message))
        return ["", *markdown.strip("\n").split("\n"), ""] if markdown.strip() else []
