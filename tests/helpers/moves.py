"""What a move must keep, measured on a loaded package: links, code paths, findings."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable

from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf.links import code_spans, resolve
from kas_tui.core.package import Package
from kas_tui.features.check import check

TODAY = dt.date(2026, 12, 1)


def markdown_files(pkg: Package) -> list[str]:
    files = [*pkg.documents, *pkg.index_paths(), *pkg.logs]
    return files + ([pkg.skill_file] if pkg.skill is not None else [])


def broken_links(pkg: Package) -> list[tuple[str, str]]:
    """Every (file, link) of the package's Markdown files whose target is not there."""
    known = pkg.known_paths()
    return [
        (rel, link.target)
        for rel in markdown_files(pkg)
        for link, target in pkg.links(rel)
        if target.kind == "outside" or (target.kind == "internal" and target.path not in known)
    ]


def document_links(pkg: Package, final: Callable[[str], str] = str) -> Counter:
    """(document, where each of its links leads), the paths named as ``final`` says."""
    return Counter(
        (final(rel), final(target.path) if target.kind == "internal" else link.target)
        for rel in pkg.documents
        for link, target in pkg.links(rel)
    )


def mentions(pkg: Package, final: Callable[[str], str] = str) -> Counter:
    """(file, path) of every path written as code in SKILL.md and the indexes that names
    something in the package."""
    known = pkg.known_paths()
    found: Counter = Counter()
    for rel in [pkg.skill_file, *pkg.index_paths()]:
        text = pkg.read_text(rel)
        for span in code_spans(text[fm.body_start(text) :]):
            target = resolve(rel, span.target)
            if target.kind == "internal" and target.path and target.path in known:
                found[final(rel), final(target.path)] += 1
    return found


def findings(pkg: Package, final: Callable[[str], str] = str) -> Counter:
    """``check --agent-ready``'s findings as (code, file) pairs."""
    report = check(pkg, agent_ready=True, today=TODAY)
    return Counter((f.code, final(f.path)) for f in report.findings)
