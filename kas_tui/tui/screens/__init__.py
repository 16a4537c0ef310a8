"""Modal screens: each returns a value to the app (or nothing) when dismissed."""
