"""The import wizard: files in, drafted documents out, written all at once or not at all.

A full screen over the headless :mod:`kas_tui.features.importing` API, in three steps:

1. **Files.** A file picker rooted where kas-tui was started (space or enter marks a
   file; space on a folder marks the files it holds; formats kas-tui cannot convert are
   dimmed), an input for typed or pasted paths (comma or line separated; ``~``, globs
   and folders work), the target bundle (the bundle of the document shown, by default,
   or a new one typed as its folder) and an optional type.
2. **Converting.** :func:`~kas_tui.features.importing.plan_import` in a worker thread (it converts
   in worker processes), with a progress bar and one line per file as each is done;
   escape stops it and goes back to the files.
3. **Preview.** The planned files on the left (what each becomes, or why it failed);
   for the highlighted one, where it goes and the index entry that will be added, the
   drafted frontmatter in the editor's own form (same rows, same checks: an edit changes
   the draft that will be written) under the file name, which can be changed while it
   stays free in the bundle, and the body rendered. Going back to the files and on
   again converts only files that changed. Space leaves a file out,
   ``u`` updates the document a re-imported file duplicates, ``d`` shows the whole diff.
   ctrl+s writes everything as one action (one ctrl+z undoes it); escape asks before
   dropping the drafts. A refused write (a file changed on disk, a folder that cannot
   be written) is shown here, nothing is left half-written, and the edits stay.

Nothing is written before ctrl+s: cancelling at any step leaves no trace.

Modules: ``screen`` (the :class:`ImportWizard` screen: state, layout, key bindings),
one per step (``files``, ``converting``, ``preview``), ``form`` (the preview's
frontmatter form) and ``labels``. What the steps decide (paths, names, drafts, the
planned entries) is :mod:`kas_tui.features.importing`'s.
"""

from kas_tui.tui.screens.import_wizard.files import FilePicker
from kas_tui.tui.screens.import_wizard.plan_form import FILE_KEY, PlanForm
from kas_tui.tui.screens.import_wizard.preview import PlanList
from kas_tui.tui.screens.import_wizard.screen import ImportWizard, open_import_wizard

__all__ = ["FILE_KEY", "FilePicker", "ImportWizard", "PlanForm", "PlanList", "open_import_wizard"]
