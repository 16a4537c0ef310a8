"""One tool call of a walk: what was asked, what the agent received, what it cost."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Any

from kas_tui.features.agent.reveal import Reveal
from kas_tui.features.agent.tools import LISTDIR, OK, SUBMIT, answer_arg


def role_of(path: str, *, folder: bool = False) -> str:
    """``skill``, ``index``, ``log``, ``document``, ``asset`` or ``folder``."""
    if folder:
        return "folder"
    name = posixpath.basename(path)
    if path == "SKILL.md":
        return "skill"
    if name == "index.md":
        return "index"
    if name == "log.md":
        return "log"
    return "document" if name.endswith(".md") else "asset"


@dataclass(frozen=True)
class Step:
    """One call and its result.

    ``text`` is exactly what the agent received (the file, the listing, or an error
    message); ``call_tokens`` estimate the call the model wrote, ``result_tokens`` the
    text it read back, ``cumulative`` the sum over the trail up to this step.
    ``revealed`` says whether the target had been named before the call (a walk only
    makes such calls; a replayed agent may have guessed). ``reveals`` are the paths the
    result names, ``new`` those it named first. ``cut_from`` is the length of the whole
    answer when the agent received only its beginning (a served session's size cut).
    """

    turn: int
    tool: str
    args: dict[str, Any] = field(hash=False)
    status: str
    text: str
    path: str | None
    call_tokens: int
    result_tokens: int
    cumulative: int
    revealed: bool = True
    reveals: tuple[Reveal, ...] = ()
    new: tuple[Reveal, ...] = ()
    cut_from: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == OK

    @property
    def tokens(self) -> int:
        """The step's cost: the call plus its result."""
        return self.call_tokens + self.result_tokens

    @property
    def error(self) -> str:
        """The error message the agent read, or ``''``."""
        return "" if self.ok else self.text

    @property
    def guessed(self) -> bool:
        """The agent opened a path nothing it had read named."""
        return not self.revealed

    @property
    def role(self) -> str:
        """What the target is (see :func:`role_of`); ``''`` without a path."""
        if self.path is None:
            return ""
        return role_of(self.path, folder=self.tool == LISTDIR)

    @property
    def answer(self) -> str | None:
        """The submitted answer, for a ``submit_answer`` step."""
        return answer_arg(self.args) if self.tool == SUBMIT else None
