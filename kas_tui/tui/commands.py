"""Every action of the app, defined once: its key, its title and its help.

The key bindings, the command palette and the help screen are all built from
:data:`COMMANDS`, so they never disagree. ``scope`` says where a binding lives: ``app``
bindings work everywhere (help, palette, quit); ``main`` bindings belong to the main
screen, so a full-screen view pushed over it (walk, bulk edit, import) never acts on the
panes it hides; ``body``, ``tree`` and ``findings`` bindings belong to that pane and show
in the footer only while it has focus (they still run from the palette). Every action
runs on the app.

The footer shows the keys of the pane holding the focus first (:data:`PANE_KEYS`, in the
order given: the footer leaves out keys from the end when the line is full), then the
main screen's, then the app's (help, quit). Textual's footer lists the focused widget's
bindings before its ancestors', so each pane binds its keys itself with ``show=True``;
the main screen binds the same keys (``show=False``) so that they work from any pane.
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
    label: str = ""  # the footer's word for it, when shorter than the title

    @property
    def word(self) -> str:
        """What the footer says beside the key."""
        return self.label or self.title

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
    ),
    Command(
        "back",
        "left_square_bracket",
        "Back",
        "Go back to the previous place",
        "Navigate",
        display="[",
    ),
    Command(
        "forward",
        "right_square_bracket",
        "Forward",
        "Go forward again",
        "Navigate",
        display="]",
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
    ),
    Command(
        "zoom",
        "z",
        "Zoom",
        "Zoom the pane with the focus to the whole screen; z or esc again restores",
        "Navigate",
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
    ),
    Command(
        "neighbourhood",
        "w",
        "Around",
        "Draw the page's links and backlinks two steps out; open one",
        "Read",
        label="Around",
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
        label="Meta",
    ),
    Command(
        "edit_external",
        "E",
        "$EDITOR",
        "Open the file shown in $EDITOR; it is read again afterwards",
        "Edit",
    ),
    Command(
        "move_entry_up",
        "K",
        "Entry up",
        "Move the selected index entry up",
        "Edit",
        scope="tree",
        label="Up",
    ),
    Command(
        "move_entry_down",
        "J",
        "Entry down",
        "Move the selected index entry down",
        "Edit",
        scope="tree",
        label="Down",
    ),
    Command(
        "remove_entry",
        "delete",
        "Unlist",
        "Remove the selected entry from its index.md (the document stays)",
        "Edit",
        scope="tree",
        display="del",
    ),
    Command(
        "add_missing_entries",
        "A",
        "Add missing",
        "List the bundle's unlisted documents and sub-bundles in its index.md",
        "Edit",
        scope="tree",
        label="Add",
    ),
    Command(
        "mark_verified",
        "V",
        "Verified",
        "Mark the document verified by you (appends to verified)",
        "Edit",
        label="Verify",
    ),
    Command("mark_deprecated", "D", "Deprecate", "Mark the document deprecated", "Edit"),
    Command(
        "extend_freshness",
        "S",
        "Freshness",
        "Set stale_after: +30, +90 or +365 days",
        "Edit",
        label="Fresh",
    ),
    Command(
        "bulk_edit",
        "B",
        "Bulk edit",
        "Filter documents, select several, set or remove a field or tag with a diff preview",
        "Edit",
        label="Bulk",
    ),
    Command(
        "undo",
        "ctrl+z",
        "Undo",
        "Undo the last edit (saved ones too)",
        "Edit",
        display="^z",
    ),
    Command("redo", "ctrl+y", "Redo", "Redo the last undone edit", "Edit", display="^y"),
    Command(
        "toggle_log",
        "L",
        "Log edits",
        "Turn the log.md entry added by each save on or off",
        "Edit",
    ),
    # Review
    Command(
        "review",
        "t",
        "Review",
        "The review queue: stale, unverified, old drafts, changed sources, broken links; act in place",
        "Review",
    ),
    Command(
        "diff_view",
        "d",
        "Diff",
        "What changed since a git revision: documents, index entries, links, tokens, findings",
        "Review",
    ),
    # Move
    Command(
        "rename",
        "r",
        "Rename",
        "Rename the selected document, asset or bundle; every link, entry and source follows",
        "Move",
    ),
    Command(
        "move_to_bundle",
        "M",
        "Move",
        "Move the selected document, asset or bundle into a bundle picked from a list",
        "Move",
    ),
    Command(
        "split_bundle",
        "X",
        "Split",
        "Move chosen documents of the bundle into a new sub-bundle with its own index.md",
        "Move",
    ),
    Command(
        "merge_bundle",
        "U",
        "Merge",
        "Move everything of the bundle into another one; its index.md and entry go",
        "Move",
    ),
    # Onboard
    Command(
        "create",
        "c",
        "Create",
        "Create a draft document or a sub-bundle here (or the missing SKILL.md)",
        "Onboard",
        label="New",
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
        label="Check",
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
        label="Next",
    ),
    # Agent
    Command(
        "agent_walk",
        "a",
        "Agent walk",
        "Walk the package as an agent would, one tool call at a time",
        "Agent",
        label="Agent",
    ),
    Command(
        "replay",
        "R",
        "Replay",
        "Step through a trajectory file (JSON Lines) an agent produced",
        "Agent",
        display="R",
    ),
    Command(
        "evaluation",
        "g",
        "Evaluation",
        "The last kas-tui eval of the package: reach, each question, blame; replay, fix, re-run",
        "Agent",
        label="Eval",
    ),
    # App
    Command(
        "reload",
        "ctrl+r",
        "Reload",
        "Read the whole package from disk again",
        "App",
        display="^r",
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
    ),
    Command("quit", "q", "Quit", "Leave kas-tui", "App", scope="app"),
)

BY_ACTION = {c.action: c for c in COMMANDS}

#: The keys each pane shows in the footer while it holds the focus, most used first (the
#: footer leaves out keys from the end when the line is full; ``?`` lists them all).
#: ``main``: the main screen's keys, shown after the pane's; the app's (``?``, ``q``) last.
PANE_KEYS: dict[str, tuple[str, ...]] = {
    "tree": (
        "edit",
        "create",
        "rename",
        "move_to_bundle",
        "move_entry_up",
        "move_entry_down",
        "remove_entry",
        "add_missing_entries",
        "split_bundle",
        "merge_bundle",
        "mark_verified",
        "mark_deprecated",
        "extend_freshness",
    ),
    "files": ("rename", "move_to_bundle", "edit_external", "toggle_files"),
    "document": (
        "edit",
        "links",
        "outline",
        "mark_verified",
        "mark_deprecated",
        "extend_freshness",
        "neighbourhood",
        "edit_external",
    ),
    "findings": ("next_finding", "close_findings", "validate"),
    "main": (
        "close_findings",
        "find",
        "review",
        "validate",
        "undo",
        "bulk_edit",
        "evaluation",
        "import_files",
        "agent_walk",
        "toggle_files",
    ),
    "app": ("help", "quit"),
}

#: What ``?`` calls each pane, by the name :data:`PANE_KEYS` gives it.
PANE_TITLES = {
    "tree": "Navigation tree",
    "files": "Files on disk",
    "document": "Document (frontmatter and body)",
    "findings": "Findings",
}


def _binding(c: Command, prefix: str, show: bool) -> Binding:
    return Binding(
        c.key,
        prefix + c.action,
        c.word,
        show=show,
        key_display=c.display or None,
        tooltip=c.help,
    )


def bindings(scope: str) -> list[Binding]:
    """The bindings of one scope, for a widget's (or screen's) ``BINDINGS``: first those
    shown in the footer (:data:`PANE_KEYS`, in order), then the rest of the scope.

    The main screen also answers the tree's keys when the tree is not focused (its own
    binding wins when it is): ``app.elsewhere`` says where the key works and moves the
    focus there, so a key never does nothing in silence."""
    prefix = "" if scope == "app" else "app."
    shown = PANE_KEYS.get(scope, ())
    own = [_binding(BY_ACTION[a], prefix, True) for a in shown if BY_ACTION[a].scope == scope]
    own += [
        _binding(c, prefix, False)
        for c in COMMANDS
        if c.scope == scope and c.action not in shown and c.action != "command_palette"
    ]
    if scope == "main":
        own += [
            Binding(c.key, f"app.elsewhere('{c.action}')", c.word, show=False, tooltip=c.help)
            for c in COMMANDS
            if c.scope == "tree"
        ]
    return own


def pane_commands(pane: str) -> list[Command]:
    """The commands of ``pane``: those its footer shows (:data:`PANE_KEYS`), in order,
    then those that work only there (scope ``pane``)."""
    shown = [BY_ACTION[a] for a in PANE_KEYS[pane]]
    return shown + [c for c in COMMANDS if c.scope == pane and c not in shown]


def pane_bindings(pane: str) -> list[Binding]:
    """The bindings of ``pane`` (:func:`pane_commands`), shown in the footer while it
    holds the focus, but for those that work only there and are not in PANE_KEYS."""
    shown = PANE_KEYS[pane]
    return [_binding(c, "app.", c.action in shown) for c in pane_commands(pane)]


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
        "## Where you are\n",
        "The footer shows the keys of the pane holding the focus first (move with tab), in",
        "this order, then the keys that work everywhere (`"
        + " ".join(BY_ACTION[a].key_display for a in PANE_KEYS["main"] if a != "close_findings")
        + "`), then `?` and",
        "`q`; what does not fit the line is left out from the end, but for `/` (find), `?`",
        "and `q`, shown at any width. `?` lists the keys of the pane you are in first, then",
        "every other key.\n",
        "| pane | its keys, in the footer's order |",
        "|---|---|",
    ]
    for pane, title in PANE_TITLES.items():
        keys = " ".join(
            f"`{BY_ACTION[a].key_display} {BY_ACTION[a].word}`" for a in PANE_KEYS[pane]
        )
        out.append(f"| {title} | {keys} |")
    out.append("")
    for group, commands in by_group().items():
        out += [f"## {group}\n", "| key | action | what it does |", "|---|---|---|"]
        for c in commands:
            where = f" ({_SCOPES[c.scope]})" if c.scope in _SCOPES else ""
            key = c.key_display.replace("|", "\\|")
            out.append(f"| `{key}` | {c.title} | {c.help}{where} |")
        out.append("")
    out += [
        "## Dialogs\n",
        "Every question with buttons answers the same way: each button shows its key, a",
        "letter of its label in brackets (`[S]ave`, `[D]iscard`, `[K]eep editing`), its first",
        "letter unless another button of the dialog has it; no two buttons of a dialog share",
        "a key, and upper or lower case both work. Enter presses the highlighted button (the",
        "default one when the dialog opens; tab moves it), escape cancels and",
        "changes nothing. Forms (the entry, frontmatter and SKILL.md editors, create, split)",
        "take letters as text: they save and close with the keys in their footer.",
        "",
    ]
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
