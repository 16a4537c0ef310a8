"""``python -m kas_tui``: the same as the ``kas-tui`` command."""

from kas_tui.cli.main import main

if __name__ == "__main__":  # not when a spawned worker process imports this module
    raise SystemExit(main())
