"""Widgets of the kas-tui app."""
