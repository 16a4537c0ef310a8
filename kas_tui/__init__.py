"""kas-tui: the curator's workbench for Knowledge-as-Skill packages."""

__version__ = "0.1.0"
