"""``kas-tui search PKG QUERY``: full-text search from the shell, the TUI's results.

Brings the package's index (in the user cache folder) up to date first, re-reading
only the documents that changed. Prints one result per document, best first:
``path:line  title`` and below it the matching line. Exit 0: found; 1: nothing found;
2: usage or I/O error (no package there, an index that cannot be made).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from kas_tui.cli.args import Parser, open_package, whole_number
from kas_tui.cli.terminal import print_coloured
from kas_tui.text.wording import terminal_text, visible

if TYPE_CHECKING:
    from kas_tui.features.find.fulltext.fts_index import Hit, Results

_BOLD, _PLAIN = "\x1b[1m", "\x1b[0m"


def search_arguments(parser: Parser) -> None:
    parser.description = (
        "Full-text search in a package's documents (title, description, tags and "
        'body), ranked by BM25 with titles first. Words must all match; "quoted words" '
        "match as a phrase; the last word also matches as a prefix; stems match (rotate "
        "finds rotation). Exit 0: found; 1: nothing found; 2: usage or I/O error."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument("query", nargs="+", metavar="QUERY", help="words to find")
    parser.add_argument(
        "--limit", type=whole_number(1), default=20, metavar="N", help="at most N documents (20)"
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (text)"
    )


def run_search(args: argparse.Namespace) -> int:
    from kas_tui.features.find.fulltext.fts_index import FullTextIndex, IndexDamaged

    location = open_package(args.path, "kas-tui search")
    query = " ".join(args.query)
    try:
        index = FullTextIndex(location.root)
        try:
            index.sync()
            results = index.search(query, limit=args.limit)
        finally:
            index.close()
    except (IndexDamaged, OSError) as exc:
        print(f"kas-tui search: cannot make the full-text index: {exc}", file=sys.stderr)
        return 2
    for note in index.notes:
        print(f"kas-tui search: {note}", file=sys.stderr)
    if results.note:
        print(f"kas-tui search: {results.note}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(as_json(query, str(location.root), results), indent=2))
    else:
        color = sys.stdout.isatty()
        for hit in results.hits:
            print_coloured(format_hit(hit, color=color))
        if not results.hits:
            print(f"No document holds {query!r}.", file=sys.stderr)
    return 0 if results.hits else 1


def format_hit(hit: Hit, *, color: bool = False) -> str:
    """``path:line  title`` and the matching line, indented (its words bold in colour)."""
    text, cuts, last = hit.text, [], 0
    for start, end in hit.spans if color else ():
        cuts += [terminal_text(text[last:start]), _BOLD, terminal_text(text[start:end]), _PLAIN]
        last = end
    shown = "".join(cuts) + terminal_text(text[last:])
    return f"{visible(hit.path)}:{hit.line}  {visible(hit.title)}\n    {shown}"


def as_json(query: str, root: str, results: Results) -> dict:
    return {
        "query": query,
        "package": root,
        "indexed": results.indexed,
        "results": [
            {
                "path": hit.path,
                "line": hit.line,
                "title": hit.title,
                "field": hit.field,
                "text": hit.text,
                "spans": [list(span) for span in hit.spans],
                "score": round(hit.score, 4),
            }
            for hit in results.hits
        ],
    }
