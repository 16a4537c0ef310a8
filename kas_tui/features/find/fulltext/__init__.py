"""Full-text search over a package's documents: an SQLite FTS5 index kept in the user
cache folder and updated incrementally. Headless (no Textual).

Modules: ``query`` (what a user typed, as a safe FTS5 query), ``reading`` (what is
stored of one document), ``index`` (the database: building, updating, ranking,
recovering), ``lines`` (the matching line of a found document and the words to
highlight), ``search_cli`` (``kas-tui search``).
"""

from kas_tui.features.find.fulltext.fts_index import FullTextIndex, Hit, Results

__all__ = ["FullTextIndex", "Hit", "Results"]
