"""``python -m kas_tui``: the same as the ``kas-tui`` command."""

from .cli import main

raise SystemExit(main())
