"""What the app does, one object per concern, each owning its state.

:class:`~kas_tui.tui.app.KasApp` constructs them (handing each the app and the others it
works with) and holds them as attributes; its ``action_*`` methods, the keys and the
palette commands of ``commands.py``, call them:

- ``navigation``: :class:`Navigation`, the place shown, the history, links followed
- ``edits``: :class:`EditController`, the edit session, undo and redo, conflicts, the
  settings, index entries moved (K/J, in bursts), removed or added
- ``external_editor``: :class:`ExternalEditor`, ``E`` ($VISUAL/$EDITOR)
- ``lifecycle_actions``: :class:`LifecycleActions`, deprecate, freshness, verified
- ``link_views``: :class:`LinkController`, links both ways, broken links, neighbourhood
- ``move_actions``: :class:`MoveController`, rename, move, split, merge
- ``live_reload``: :class:`Reloader`, the watcher, the views redrawn after any change
- ``validation``: :class:`ValidationController`, the report and the findings panel
- ``find_index``: :class:`FindIndex`, the finder's index; ``text_search``:
  :class:`FullTextController`, the full-text index
- ``host``: :class:`Host`, the app as they see it

Nothing is imported here: the app imports each module it needs.
"""
