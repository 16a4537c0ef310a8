"""What an agent sees: the catalog entry, tool calls, token estimates, trajectories.

Headless (no Textual). A :class:`Walk` lets a curator take an agent's decisions one
call at a time, from the ``<available_skills>`` catalog entry on, with only what the
agent has seen so far reachable; :func:`replay` steps through a logged trajectory.
Both produce :class:`Step` records and a :class:`Summary`.

Modules: ``catalog`` (the entry), ``sandbox`` (paths an agent writes, kept inside the
package), ``tools`` (listdir, readfile, peek, submit_answer), ``reveal`` (what a result
names), ``step``, ``summary``, ``trail`` (the engine), ``walk``, ``trajectory``
(JSON Lines), ``replay``.
"""

from kas_tui.features.agent.replay import Replay, replay, replay_file
from kas_tui.features.agent.reveal import Reveal
from kas_tui.features.agent.sandbox import Location, Sandbox
from kas_tui.features.agent.skill_catalog import (
    CatalogEntry,
    catalog_entry,
    escape_xml,
    render_catalog,
)
from kas_tui.features.agent.step import Step, role_of
from kas_tui.features.agent.tools import (
    ALL_TOOLS,
    LISTDIR,
    MINIMAL_TOOLS,
    PEEK,
    READFILE,
    SUBMIT,
    Outcome,
    run_tool,
)
from kas_tui.features.agent.trail import Reach, Trail
from kas_tui.features.agent.trajectory import (
    Call,
    Trajectory,
    TrajectoryProblem,
    header_record,
    parse_trajectory,
    read_trajectory,
    trajectory_jsonl,
    write_trajectory,
)
from kas_tui.features.agent.walk import Action, NotRevealedError, Walk, WalkError
from kas_tui.features.agent.walk_summary import DEFAULT_BUDGET, Summary

__all__ = [
    "ALL_TOOLS",
    "DEFAULT_BUDGET",
    "LISTDIR",
    "MINIMAL_TOOLS",
    "PEEK",
    "READFILE",
    "SUBMIT",
    "Action",
    "Call",
    "CatalogEntry",
    "Location",
    "NotRevealedError",
    "Outcome",
    "Reach",
    "Replay",
    "Reveal",
    "Sandbox",
    "Step",
    "Summary",
    "Trail",
    "Trajectory",
    "TrajectoryProblem",
    "Walk",
    "WalkError",
    "catalog_entry",
    "escape_xml",
    "header_record",
    "parse_trajectory",
    "read_trajectory",
    "render_catalog",
    "replay",
    "replay_file",
    "role_of",
    "run_tool",
    "trajectory_jsonl",
    "write_trajectory",
]
