"""The Textual face of kas-tui. Nothing outside this package imports Textual."""
