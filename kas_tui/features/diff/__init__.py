"""``kas-tui diff``: what a change to a package changes for the agent that reads it
(issue 36, item 2). :mod:`.compare` holds the use case; :mod:`.revision` reads a git
revision, :mod:`.documents`, :mod:`.indexes`, :mod:`.links` and :mod:`.findings` each
compare one part, and :mod:`.render` writes text and Markdown."""
