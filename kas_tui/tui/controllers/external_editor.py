"""``E``: the file shown handed to $VISUAL/$EDITOR; the app suspends, then reads it again.

The command is checked before the terminal is handed over (a bad one is a message naming
it), and whatever happens while suspended, the app comes back.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

from kas_tui.core.store import os_reason

if TYPE_CHECKING:
    from kas_tui.tui.controllers.host import Host
    from kas_tui.tui.controllers.live_reload import Reloader
    from kas_tui.tui.controllers.navigation import Navigation


class ExternalEditor:
    """Runs the user's editor on the file shown."""

    def __init__(self, app: Host, nav: Navigation, reloader: Reloader) -> None:
        self.app = app
        self.nav = nav
        self.reloader = reloader

    def edit(self) -> None:
        """Hand the file shown to $VISUAL/$EDITOR; the app suspends and reads it again."""
        app = self.app
        rel = self.nav.location
        if rel is None:
            app.notify("Select a file first", severity="warning")
            return
        argv = editor_command(os.environ)
        if isinstance(argv, str):
            app.notify(argv, title="No editor", severity="error", timeout=10)
            return
        editor = argv[0]
        path = app.package.root / rel
        failure: str | None = None
        returncode = 0
        try:
            with app.suspend():
                # nothing may escape this block: an exception leaving app.suspend()
                # skips resuming the app, which stays blank with the terminal cooked
                try:
                    returncode = subprocess.run([*argv, str(path)], check=False).returncode
                except OSError as exc:
                    failure = f"editor {editor!r} could not run: {os_reason(exc)}"
                except KeyboardInterrupt:
                    failure = f"editor {editor!r} was interrupted"
        except SuspendNotSupported:
            app.notify("This terminal cannot hand over to an editor", severity="error")
            return
        if failure is not None:
            app.notify(failure, title="No editor", severity="error", timeout=10)
            return
        app.package.reload_file(rel)
        self.reloader.after_write()
        if returncode != 0:
            app.notify(f"{editor} exited with {returncode}", severity="warning")
        else:
            app.notify(f"Read {rel} again")


def editor_command(environ: Mapping[str, str]) -> list[str] | str:
    """The editor to run, as argv with its program resolved, or why there is none.

    $VISUAL wins over $EDITOR, and ``vi`` is the fallback. The message (a string) names
    the variable and the editor, and says how to fix it.
    """
    name = next((var for var in ("VISUAL", "EDITOR") if environ.get(var)), None)
    command = environ[name] if name else "vi"
    try:
        argv = shlex.split(command)
    except ValueError:
        return f"${name} has unbalanced quotes: {command}; fix its quoting"
    if not argv:
        return f"${name} is blank; set $VISUAL or $EDITOR to an editor command"
    program = argv[0]
    source = f"from ${name}" if name else "neither $VISUAL nor $EDITOR is set"
    where = f"editor {program!r} ({source})"
    if os.sep in program or (os.altsep and os.altsep in program):
        found = os.path.expanduser(program)
        if not os.path.exists(found):
            return f"{where} does not exist; set $VISUAL or $EDITOR to an installed editor"
        if os.path.isdir(found) or not os.access(found, os.X_OK):
            return f"{where} is not an executable file; chmod +x it or set $VISUAL or $EDITOR"
    else:
        resolved = shutil.which(program, path=environ.get("PATH", os.defpath))
        if resolved is None:
            return f"{where} not found on PATH; set $VISUAL or $EDITOR to an installed editor"
        found = resolved
    return [found, *argv[1:]]
