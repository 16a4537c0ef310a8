"""Onboarding: convert files with MarkItDown, draft their frontmatter, import, build.

Headless (no Textual), and MarkItDown is imported only inside the worker processes
that convert a format needing it, never on import of this package.

Modules
-------
- ``convert``: :class:`Limits`, :class:`Converted`, :class:`ConversionError`,
  :func:`convert_file` and :func:`convert_files` (one file, or many in parallel).
- ``pool``: the worker processes; a conversion over its time limit is killed.
- ``prose``: Markdown read as headings, paragraphs and sentences.
- ``draft``: :class:`Draft` and :func:`draft_document` (type, title, description, tags,
  sources with the SHA-256, generated, status), :func:`render_document`.
- ``heuristics``: the drafted title, description, type and tags.
- ``slug``: file names as slugs unique in their folder; typed file and folder names
  checked.
- ``files``: the formats kas-tui converts; typed or pasted paths as files.
- ``summary``: folder descriptions and the SKILL.md draft.
- ``importer``: :func:`plan_import`, :func:`preview_import`, :func:`write_import`.
- ``build``: :func:`build`, the five-stage pipeline behind ``kas-tui build``; its
  ``build_layout`` (paths, links, indexes), ``build_reconcile`` (a later build over
  curator edits) and ``build_manifest`` (``.kas-build.json``).
- ``progress``: counts and an ETA on stderr.

The API the import wizard uses
------------------------------
::

    from kas_tui.features.importing import Limits, plan_import, preview_import, write_import

    plans = plan_import(pkg, files, "billing", limits=Limits(timeout=60),
                        on_result=lambda i, result: ..., should_stop=cancelled.is_set)
    for plan in plans:
        plan.action          # create | update | unchanged | duplicate | failed
        plan.message         # one line naming the file, for the list
        plan.draft           # Draft: .frontmatter (dict), .body, .path, .slug,
                             #        .title and .description (the index entry)
        plan.error           # ConversionError (failed): .reason, .message
    plans = [confirm_update(p) if p.action == "duplicate" and user_agrees(p) else p
             for p in plans]
    preview = preview_import(pkg, plans)  # .diff (unified), .entries_for(plan);
                                          # nothing written
    result = write_import(pkg, plans)     # ImportResult; raises ImportFailed

- ``plan_import`` converts in worker processes (call it from a worker thread; it
  blocks until every file is converted or ``should_stop()`` says to cancel) and
  drafts; it writes nothing, so a cancelled wizard leaves no trace.
- A file already in the package (same SHA-256, or same original path) is never
  imported twice: it is planned as ``unchanged`` or ``duplicate``;
  :func:`confirm_update` turns a duplicate into an update of that document (new body
  and source record; the curator's title, description and type are kept).
- ``write_import`` writes through ``pkg.store`` (atomic files, conflict checks, the undo
  journal): each document, its entry in the bundle's ``index.md`` (creating the index
  and the bundle's entry in its parent index when needed) and one ``log.md`` entry
  each. When a write fails, the writes before it are undone and :class:`ImportFailed`
  says why: a failed import leaves nothing half-written.
- The lower level: ``convert_file(path, limits) -> Converted | ConversionError`` and
  ``draft_document(converted, package, bundle, type=None) -> Draft``;
  ``Draft.render()`` is the file's text.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BuildError",
    "BuildResult",
    "ConversionError",
    "Converted",
    "Draft",
    "ImportFailed",
    "ImportPreview",
    "ImportResult",
    "PlannedEntry",
    "Limits",
    "PlannedImport",
    "build",
    "confirm_update",
    "convert_file",
    "convert_files",
    "draft_document",
    "plan_import",
    "preview_import",
    "write_import",
]

_WHERE = {
    "BuildError": "build",
    "BuildResult": "build",
    "build": "build",
    "ConversionError": "convert",
    "Converted": "convert",
    "Limits": "convert",
    "convert_file": "pool",
    "convert_files": "pool",
    "Draft": "draft",
    "draft_document": "draft",
    "ImportFailed": "importer",
    "ImportPreview": "importer",
    "ImportResult": "importer",
    "PlannedEntry": "importer",
    "PlannedImport": "importer",
    "confirm_update": "importer",
    "plan_import": "importer",
    "preview_import": "importer",
    "write_import": "importer",
}


def __getattr__(name: str) -> Any:
    """Load each module on first use (the CLI's ``check`` never pays for these)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(name)
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)
