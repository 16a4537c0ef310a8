"""Every action of the app, defined once: its key, its title and its help.

The key bindings, the command palette and the help screen are all built from
:data:`COMMANDS`, so they never disagree. ``scope`` says where a binding lives: ``app``
bindings work everywhere (help, palette, quit); ``main`` bindings belong to the main
screen, so a full-screen view pushed over it (walk, bulk edit, import) never acts on the
panes it hides; ``body``, ``tree`` and ``findings`` bindings belong to that pane and show
in the footer only while it has focus (they still run from the palette). Every action
runs on the app.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from textual.app import App


@dataclass(frozen=True)
class Command:
    """One user action: ``action`` names ``App.action_<action>``."""

    action: str
    key: str
    title: str
    help: str
    group: str
    scope: str = "main"
    display: str = ""  # how the key is shown, when not the key itself
    footer: bool = True

    @property
    def key_display(self) -> str:
        return self.display or self.key


COMMANDS: tuple[Command, ...] = (
    # Navigate
    Command(
        "find",
        "slash",
        "Find",
        "Fuzzy-find a document by title, description, tag or path",
        "Navigate",
        display="/",
    ),
    Command(
        "find_text",
        "ctrl+f",
        "Find in text",
        "Search the words of every document, bodies too; opens at the matching line",
        "Navigate",
        display="^f",
        footer=False,
    ),
    Command(
        "back",
        "left_square_bracket",
        "Back",
        "Go back to the previous place",
        "Navigate",
        display="[",
        footer=False,
    ),
    Command(
        "forward",
        "right_square_bracket",
        "Forward",
        "Go forward again",
        "Navigate",
        display="]",
        footer=False,
    ),
    Command(
        "toggle_files",
        "f",
        "Files",
        "Show or hide the files on disk beside the tree (in its place when narrow)",
        "Navigate",
    ),
    Command(
        "focus_tree",
        "T",
        "Tree",
        "Move to the navigation tree (back in its place if it gave way)",
        "Navigate",
        footer=False,
    ),
    Command(
        "zoom",
        "z",
        "Zoom",
        "Zoom the pane with the focus to the whole screen; z or esc again restores",
        "Navigate",
        footer=False,
    ),
    Command(
        "links",
        "l",
        "Links",
        "List the page's links and what cites it (with the linking line); follow or open one",
        "Read",
    ),
    Command(
        "broken_links",
        "b",
        "Broken",
        "List every broken link of the package and open one at its line",
        "Read",
        footer=False,
    ),
    Command(
        "neighbourhood",
        "w",
        "Around",
        "Draw the page's links and backlinks two steps out; open one",
        "Read",
        footer=False,
    ),
    Command(
        "outline",
        "o",
        "Outline",
        "Show or hide the outline of the page's headings",
        "Read",
    ),
    # Edit
    Command(
        "edit",
        "e",
        "Edit",
        "Edit what is selected: an index entry in the tree, else the document's frontmatter",
        "Edit",
    ),
    Command(
        "edit_meta",
        "m",
        "Metadata",
        "Edit the frontmatter of the document shown (a form, or raw YAML)",
        "Edit",
        footer=False,
    ),
    Command(
        "edit_external",
        "E",
        "$EDITOR",
        "Open the file shown in $EDITOR; it is read again afterwards",
        "Edit",
        footer=False,
    ),
    Command(
        "move_entry_up",
        "K",
        "Entry up",
        "Move the selected index entry up",
        "Edit",
        scope="tree",
        footer=False,
    ),
    Command(
        "move_entry_down",
        "J",
        "Entry down",
        "Move the selected index entry down",
        "Edit",
        scope="tree",
        footer=False,
    ),
    Command(
        "remove_entry",
        "delete",
        "Unlist",
        "Remove the selected entry from its index.md (the document stays)",
        "Edit",
        scope="tree",
        display="del",
        footer=False,
    ),
    Command(
        "add_missing_entries",
        "A",
        "Add missing",
        "List the bundle's unlisted documents and sub-bundles in its index.md",
        "Edit",
        scope="tree",
        footer=False,
    ),
    Command(
        "mark_verified",
        "V",
        "Verified",
        "Mark the document verified by you (appends to verified)",
        "Edit",
        footer=False,
    ),
    Command(
        "mark_deprecated", "D", "Deprecate", "Mark the document deprecated", "Edit", footer=False
    ),
    Command(
        "extend_freshness",
        "S",
        "Freshness",
        "Set stale_after: +30, +90 or +365 days",
        "Edit",
        footer=False,
    ),
    Command(
        "bulk_edit",
        "B",
        "Bulk edit",
        "Filter documents, select several, set or remove a field or tag with a diff preview",
        "Edit",
        footer=False,
    ),
    Command(
        "undo",
        "ctrl+z",
        "Undo",
        "Undo the last edit (saved ones too)",
        "Edit",
        display="^z",
        footer=False,
    ),
    Command(
        "redo", "ctrl+y", "Redo", "Redo the last undone edit", "Edit", display="^y", footer=False
    ),
    Command(
        "toggle_log",
        "L",
        "Log edits",
        "Turn the log.md entry added by each save on or off",
        "Edit",
        footer=False,
    ),
    # Review
    Command(
        "review",
        "t",
        "Review",
        "The review queue: stale, unverified, old drafts, changed sources, broken links; act in place",
        "Review",
        footer=False,
    ),
    Command(
        "diff_view",
        "d",
        "Diff",
        "What changed since a git revision: documents, index entries, links, tokens, findings",
        "Review",
        footer=False,
    ),
    # Move
    Command(
        "rename",
        "r",
        "Rename",
        "Rename the selected document, asset or bundle; every link, entry and source follows",
        "Move",
        footer=False,
    ),
    Command(
        "move_to_bundle",
        "M",
        "Move",
        "Move the selected document, asset or bundle into a bundle picked from a list",
        "Move",
        footer=False,
    ),
    Command(
        "split_bundle",
        "X",
        "Split",
        "Move chosen documents of the bundle into a new sub-bundle with its own index.md",
        "Move",
        footer=False,
    ),
    Command(
        "merge_bundle",
        "U",
        "Merge",
        "Move everything of the bundle into another one; its index.md and entry go",
        "Move",
        footer=False,
    ),
    # Onboard
    Command(
        "create",
        "c",
        "Create",
        "Create a draft document or a sub-bundle here (or the missing SKILL.md)",
        "Onboard",
        footer=False,
    ),
    Command(
        "import_files",
        "i",
        "Import",
        "Convert files (PDF, Word, slides, web pages...) into documents of a bundle",
        "Onboard",
    ),
    # Check
    Command(
        "validate",
        "v",
        "Validate",
        "Check the package (agent-ready) and list the findings; again closes the list",
        "Check",
    ),
    Command(
        "close_findings",
        "escape",
        "Close",
        "Close the findings list; the focus goes back where it was",
        "Check",
        display="esc",
    ),
    Command(
        "next_finding",
        "n",
        "Next finding",
        "Jump to the next finding's file and line",
        "Check",
        footer=False,
    ),
    # Agent
    Command(
        "agent_walk",
        "a",
        "Agent walk",
        "Walk the package as an agent would, one tool call at a time",
        "Agent",
    ),
    Command(
        "replay",
        "R",
        "Replay",
        "Step through a trajectory file (JSON Lines) an agent produced",
        "Agent",
        display="R",
        footer=False,
    ),
    Command(
        "evaluation",
        "g",
        "Evaluation",
        "The last kas-tui eval of the package: reach, each question, blame; replay, fix, re-run",
        "Agent",
        footer=False,
    ),
    # App
    Command(
        "reload",
        "ctrl+r",
        "Reload",
        "Read the whole package from disk again",
        "App",
        display="^r",
        footer=False,
    ),
    Command("help", "question_mark", "Help", "Show every key", "App", scope="app", display="?"),
    Command(
        "command_palette",
        "ctrl+p",
        "Palette",
        "Search every action",
        "App",
        scope="app",
        display="^p",
        footer=False,
    ),
    Command("quit", "q", "Quit", "Leave kas-tui", "App", scope="app"),
)

BY_ACTION = {c.action: c for c in COMMANDS}


def bindings(scope: str) -> list[Binding]:
    """The bindings of one scope, for a widget's (or screen's) ``BINDINGS``.

    The main screen also answers the tree's keys when the tree is not focused (its own
    binding wins when it is): ``app.elsewhere`` says where the key works and moves the
    focus there, so a key never does nothing in silence."""
    prefix = "" if scope == "app" else "app."
    own = [
        Binding(c.key, prefix + c.action, c.title, show=c.footer, key_display=c.display or None)
        for c in COMMANDS
        if c.scope == scope and c.action != "command_palette"
    ]
    if scope == "main":
        own += [
            Binding(c.key, f"app.elsewhere('{c.action}')", c.title, show=False)
            for c in COMMANDS
            if c.scope == "tree"
        ]
    return own


def command(action: str) -> Command:
    """The command of ``action``."""
    return next(c for c in COMMANDS if c.action == action)


def by_group() -> dict[str, list[Command]]:
    """Commands grouped for the help screen, in definition order."""
    groups: dict[str, list[Command]] = {}
    for command in COMMANDS:
        groups.setdefault(command.group, []).append(command)
    return groups


_SCOPES = {"tree": "in the navigation tree", "body": "in the body pane"}


def keys_markdown() -> str:
    """``docs/keys.md``: every key of the main screen, from :data:`COMMANDS`."""
    out = [
        "# kas-tui: keys\n",
        "Generated from `kas_tui/tui/commands.py` (`python -m kas_tui.tui.commands`);",
        "do not edit by hand. The same table drives the key bindings, the command palette",
        "(ctrl+p) and the help screen (?). The agent walk, replay and editor screens show",
        "their own keys in their footer.\n",
    ]
    for group, commands in by_group().items():
        out += [f"## {group}\n", "| key | action | what it does |", "|---|---|---|"]
        for c in commands:
            where = f" ({_SCOPES[c.scope]})" if c.scope in _SCOPES else ""
            key = c.key_display.replace("|", "\\|")
            out.append(f"| `{key}` | {c.title} | {c.help}{where} |")
        out.append("")
    return "\n".join(out)


class KasCommands(Provider):
    """The command palette: every action, with its key (on the main screen only: over a
    walk, an editor or a dialog, they would act on the screen hidden underneath)."""

    def _commands(self) -> Iterable[Command]:
        if self.screen is not self.app.screen_stack[0]:
            return ()
        return (c for c in COMMANDS if c.action != "command_palette")

    def _run(self, action: str) -> None:
        app: App = self.app
        app.call_later(app.run_action, action)

    async def discover(self) -> Hits:
        for command in self._commands():
            yield DiscoveryHit(
                f"{command.title}  ({command.key_display})",
                partial(self._run, command.action),
                help=command.help,
            )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for command in self._commands():
            text = f"{command.title}  ({command.key_display})"
            score = max(matcher.match(text), matcher.match(command.help) * 0.8)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(text),
                    partial(self._run, command.action),
                    help=command.help,
                )


if __name__ == "__main__":
    print(keys_markdown(), end="")
