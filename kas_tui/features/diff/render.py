"""A :class:`~.compare.Diff` as text for the terminal (every line within 80 columns) and
as Markdown for a pull-request comment.

Both say the same things in the same order: the counts, the token cost of the catalog
entry and of each index whose cost changed, the findings the change introduces and
fixes, then documents, index entries, the catalog entry and links. Every name that came
from a file is made printable on one line (:func:`kas_tui.text.wording.visible`); the
Markdown escapes what Markdown would read as markup.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable

from kas_tui.features.check.findings import Finding
from kas_tui.features.diff.compare import Diff
from kas_tui.features.diff.documents import DocumentChange, FieldChange
from kas_tui.features.diff.indexes import Cost, EntryChange
from kas_tui.features.diff.links import LinkChange
from kas_tui.text.wording import counted, elide_path, elide_words, visible

WIDTH = 80
_BOLD, _RED, _CYAN, _DIM, _RESET = "\x1b[1m", "\x1b[31m", "\x1b[36m", "\x1b[2m", "\x1b[0m"


def signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"−{-n:,}" if n < 0 else "0"


def counts_line(diff: Diff) -> str:
    """The change in one line of counts (``no change`` when there is none)."""
    s = diff.summary()
    parts = []
    for key, word in (
        ("documents_added", "added"),
        ("documents_removed", "removed"),
        ("documents_moved", "moved"),
        ("documents_changed", "changed"),
    ):
        if s[key]:
            parts.append(f"{s[key]:,} {word}")
    entries = [
        f"{s[f'entries_{w}']:,} {w}"
        for w in ("added", "removed", "reworded", "moved")
        if s[f"entries_{w}"]
    ]
    out = []
    if parts:
        out.append("documents: " + ", ".join(parts))
    if entries:
        out.append("entries: " + ", ".join(entries))
    if s["links_broken"]:
        out.append(f"{counted(s['links_broken'], 'link')} broken")
    if s["new_errors"] or s["new_warnings"]:
        out.append(
            f"{counted(s['new_errors'], 'new error')}, {counted(s['new_warnings'], 'new warning')}"
        )
    if diff.findings.fixed:
        out.append(f"{counted(len(diff.findings.fixed), 'finding')} fixed")
    return "; ".join(out) if out else "no change an agent would see"


def changed_costs(diff: Diff) -> list[Cost]:
    """The catalog entry's cost and each index's whose cost changed."""
    catalog = Cost("catalog entry", diff.catalog_before.tokens, diff.catalog_after.tokens)
    return [catalog, *(c for c in diff.indexes.costs if c.delta)]


def _place(change: EntryChange) -> str:
    """Where a moved entry went: another section, or another index."""
    b, a = change.before, change.after
    assert b is not None and a is not None
    if b.index != a.index:
        return f"from {b.index} to {a.index} ({a.section_name})"
    return f'from "{b.section_name}" to "{a.section_name}"'


def entry_verb(change: EntryChange) -> str:
    """What happened to an index entry: added, removed, reworded, moved (or both)."""
    if change.kind != "changed":
        return change.kind
    return " and ".join(w for w in ("reworded", "moved") if getattr(change, w))


# --- text ----------------------------------------------------------------------------


class _Text:
    """Lines within :data:`WIDTH`, headings in bold when ``colour``."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour
        self.lines: list[str] = []

    def paint(self, text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if self.colour else text

    def heading(self, text: str) -> None:
        self.lines += ["", self.paint(text, _BOLD)]

    def line(self, text: str, indent: int = 2, code: str = "") -> None:
        """``text`` on one line, cut after a word if it is too long."""
        cut = elide_words(visible(text), WIDTH - indent)
        self.lines.append(" " * indent + (self.paint(cut, code) if code else cut))

    def wrapped(
        self, text: str, indent: int = 2, *, hang: int = 2, most: int = 4, code: str = ""
    ) -> None:
        """``text`` in lines of :data:`WIDTH`, the second and later ``hang`` further in,
        at most ``most`` of them (the last cut with an ellipsis)."""
        lines = textwrap.wrap(
            visible(text),
            WIDTH,
            initial_indent=" " * indent,
            subsequent_indent=" " * (indent + hang),
            break_on_hyphens=False,
            break_long_words=True,
            max_lines=most,
            placeholder=" …",
        )
        self.lines += [self.paint(line, code) if code else line for line in lines]

    def value_change(self, change: FieldChange, indent: int) -> None:
        before, after = change.before, change.after
        if before is None or after is None:
            word = "added" if before is None else "removed"
            self.line(f"{change.name}: {word}: {after if before is None else before}", indent)
            return
        one = f"{change.name}: {before} → {after}"
        if len(visible(one)) <= WIDTH - indent:
            self.line(one, indent)
            return
        self.line(f"{change.name}:", indent)
        self.wrapped(f"- {before}", indent + 2, most=8)
        self.wrapped(f"+ {after}", indent + 2, most=8)


def _path(path: str, room: int = 50) -> str:
    return elide_path(visible(path), room)


def _document_text(out: _Text, diff: Diff) -> None:
    d = diff.documents
    if not (d.added or d.removed or d.moved or d.changed):
        return
    out.heading("Documents")
    for path in d.added:
        out.line(f"+ {_path(path)}  {d.titles.get(path, '')}")
    for path in d.removed:
        out.line(f"- {_path(path)}  {d.titles.get(path, '')}")
    for move in d.moved:
        how = "same body" if move.likeness == 100 else f"body {move.likeness}% alike"
        out.line(f"→ {_path(move.old, 30)} → {_path(move.new, 30)} ({how})")
        _changes_text(out, move)
    for change in d.changed:
        out.line(f"~ {_path(change.new, 74)}")
        _changes_text(out, change)


def _changes_text(out: _Text, change: DocumentChange) -> None:
    for field_change in change.fields:
        out.value_change(field_change, 6)
    if change.body_changed:
        out.line(f"body: +{change.lines_added:,} −{change.lines_removed:,} lines", 6)


def _entries_text(out: _Text, diff: Diff) -> None:
    entries = diff.indexes.entries
    if not entries:
        return
    out.heading("Index entries")
    index = None
    for e in entries:
        if e.index != index:
            index = e.index
            out.line(index, 2)
        mark = {"added": "+", "removed": "-"}.get(e.kind, "~")
        head = f"{mark} [{e.title}] → {e.target}"
        if e.kind == "added" and e.after is not None:
            head += f', in "{e.after.section_name}"'
        out.line(head, 4)
        if e.kind == "changed":
            out.line(entry_verb(e) + (f" {_place(e)}" if e.moved else ""), 8)
        if e.reworded and e.title_before != e.title_after:
            out.value_change(FieldChange("title", e.title_before, e.title_after), 8)
        if e.reworded and e.description_before != e.description_after:
            out.value_change(
                FieldChange("description", e.description_before, e.description_after), 8
            )


def _catalog_text(out: _Text, diff: Diff) -> None:
    a, b = diff.catalog_before, diff.catalog_after
    out.heading("Catalog entry (SKILL.md)")
    if not diff.catalog_changed:
        out.line(f"unchanged: {b.name}")
        return
    for name, before, after in (
        ("name", a.name, b.name),
        ("description", a.description, b.description),
    ):
        if before != after:
            out.value_change(FieldChange(name, before, after), 2)
    if a.discoverable != b.discoverable:
        out.line(
            "now discoverable" if b.discoverable else "no longer discoverable (no usable SKILL.md)"
        )


def _costs_text(out: _Text, diff: Diff) -> None:
    out.heading(f"{'Token cost (estimated)':<48}{'before':>10}{'after':>10}{'change':>10}")
    for cost in changed_costs(diff):
        name = _path(cost.path, 44)
        out.line(f"{name:<46}{cost.before:>10,}{cost.after:>10,}{signed(cost.delta):>10}")
    same = sum(1 for c in diff.indexes.costs if not c.delta)
    if same:
        out.line(f"{counted(same, 'index', 'indexes')} cost the same", code=_DIM)


def _link_line(link: LinkChange) -> str:
    return f"{visible(link.source)}:{link.line} → {visible(link.target)}"


def _links_text(out: _Text, diff: Diff) -> None:
    links = diff.links
    if not (links.added or links.removed or links.broken or links.mended):
        return
    out.heading("Links")
    for mark, group, code in (
        ("+", links.added, ""),
        ("-", links.removed, ""),
        ("broken:", links.broken, _RED),
        ("mended:", links.mended, _CYAN),
    ):
        for link in group:
            out.wrapped(f"{mark} {_link_line(link)}", hang=4, code=code)


def _finding_line(finding: Finding) -> str:
    where = f"{finding.path}:{finding.line}" if finding.line else finding.path
    return f"{where}: {finding.code} {finding.severity} {finding.message}"


def _findings_text(out: _Text, diff: Diff) -> None:
    f = diff.findings
    out.heading(f"Findings ({diff.options.profile} check: {f.before:,} before, {f.after:,} after)")
    if not (f.new or f.fixed):
        out.line("none new, none fixed")
    for finding in f.new:
        code = _RED if finding.severity == "error" else ""
        out.wrapped(f"new   {_finding_line(finding)}", hang=6, code=code)
    for finding in f.fixed:
        out.wrapped(f"fixed {_finding_line(finding)}", hang=6, code=_CYAN)


def diff_text(diff: Diff, *, colour: bool = False) -> str:
    """The diff for a terminal, every line within :data:`WIDTH` columns."""
    out = _Text(colour)
    out.wrapped(f"{diff.package}: {diff.before} → {diff.after}", 0, most=3)
    out.wrapped(counts_line(diff), 0, most=6)
    _costs_text(out, diff)
    _findings_text(out, diff)
    _document_text(out, diff)
    _entries_text(out, diff)
    _catalog_text(out, diff)
    _links_text(out, diff)
    return "\n".join(out.lines)


# --- markdown ------------------------------------------------------------------------

_MARKUP = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def md(text: str) -> str:
    """``text`` as Markdown text, its markup characters escaped, on one line."""
    return _MARKUP.sub(r"\\\1", visible(text))


def code(text: str) -> str:
    """``text`` as a Markdown code span (a path), fenced so a backtick in it holds."""
    text = visible(text).replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_words(before: str, after: str) -> str:
    """``after`` in Markdown with the words ``before`` had and it lacks struck through
    (``~~old~~``) and the words it adds in bold: a description's change at a glance."""
    import difflib

    a, b = before.split(), after.split()
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(md(" ".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"~~{md(' '.join(a[i1:i2]))}~~")
        if j2 > j1:
            out.append(f"**{md(' '.join(b[j1:j2]))}**")
    return " ".join(out)


def _md_value(change: FieldChange) -> str:
    if change.before is None:
        return f"{md(change.name)} added: {md(change.after or '')}"
    if change.after is None:
        return f"{md(change.name)} removed (was {md(change.before)})"
    if min(len(change.before), len(change.after)) > 60:  # a sentence: the words changed
        return f"{md(change.name)}: {md_words(change.before, change.after)}"
    return f"{md(change.name)}: ~~{md(change.before)}~~ → {md(change.after)}"


def _details(title: str, lines: Iterable[str]) -> list[str]:
    body = list(lines)
    if not body:
        return []
    return ["", f"<details><summary>{title}</summary>", "", *body, "", "</details>"]


def _md_documents(diff: Diff) -> list[str]:
    d = diff.documents
    lines = [f"- added {code(p)} {md(d.titles.get(p, ''))}" for p in d.added]
    lines += [f"- removed {code(p)} {md(d.titles.get(p, ''))}" for p in d.removed]
    for move in d.moved:
        how = "same body" if move.likeness == 100 else f"body {move.likeness}% alike"
        lines.append(f"- moved {code(move.old)} → {code(move.new)} ({how})")
        lines += _md_changes(move)
    for change in d.changed:
        lines.append(f"- changed {code(change.new)}")
        lines += _md_changes(change)
    total = len(d.added) + len(d.removed) + len(d.moved) + len(d.changed)
    return _details(f"Documents ({total:,})", lines)


def _md_changes(change: DocumentChange) -> list[str]:
    lines = [f"  - {_md_value(f)}" for f in change.fields]
    if change.body_changed:
        lines.append(f"  - body: +{change.lines_added:,} −{change.lines_removed:,} lines")
    return lines


def _md_entries(diff: Diff) -> list[str]:
    lines = []
    for e in diff.indexes.entries:
        head = f"- {code(e.index)}: {entry_verb(e)} [{md(e.title)}] → {code(e.target)}"
        if e.kind == "added" and e.after is not None:
            head += f" in {md(e.after.section_name)}"
        if e.moved:
            head += f" {md(_place(e))}"
        lines.append(head)
        if e.reworded and e.title_before != e.title_after:
            lines.append(f"  - {_md_value(FieldChange('title', e.title_before, e.title_after))}")
        if e.reworded and e.description_before != e.description_after:
            change = FieldChange("description", e.description_before, e.description_after)
            lines.append(f"  - {_md_value(change)}")
    return _details(f"Index entries ({len(diff.indexes.entries):,})", lines)


def _md_catalog(diff: Diff) -> list[str]:
    a, b = diff.catalog_before, diff.catalog_after
    if not diff.catalog_changed:
        return []
    lines = ["", "#### Catalog entry (SKILL.md)", ""]
    for name, before, after in (
        ("name", a.name, b.name),
        ("description", a.description, b.description),
    ):
        if before != after:
            lines += [
                f"**{name}** (~~removed~~, **added**):",
                "",
                f"> {md_words(before, after)}",
                "",
            ]
    if a.discoverable != b.discoverable:
        lines.append(
            "Now discoverable."
            if b.discoverable
            else "**No longer discoverable** (no usable SKILL.md)."
        )
    return lines


def _md_links(diff: Diff) -> list[str]:
    links = diff.links
    lines = []
    for word, group in (
        ("added", links.added),
        ("removed", links.removed),
        ("**broken**", links.broken),
        ("mended", links.mended),
    ):
        lines += [f"- {word} {code(f'{x.source}:{x.line}')} → {code(x.target)}" for x in group]
    total = len(links.added) + len(links.removed) + len(links.broken) + len(links.mended)
    return _details(f"Links ({total:,})", lines)


def _md_finding(finding: Finding) -> str:
    where = f"{finding.path}:{finding.line}" if finding.line else finding.path
    return f"{code(where)} **{finding.code}** {finding.severity}: {md(finding.message)}"


def diff_markdown(diff: Diff) -> str:
    """The diff as a pull-request comment (GitHub-flavoured Markdown)."""
    f = diff.findings
    lines = [
        f"### kas-tui diff: {md(diff.package)}",
        "",
        f"{code(diff.before)} → {code(diff.after)} · {md(counts_line(diff))}",
        "",
        "| what the agent reads (estimated tokens) | before | after | change |",
        "|---|---:|---:|---:|",
    ]
    for cost in changed_costs(diff):
        name = cost.path if cost.path == "catalog entry" else code(cost.path)
        lines.append(f"| {name} | {cost.before:,} | {cost.after:,} | {signed(cost.delta)} |")
    same = sum(1 for c in diff.indexes.costs if not c.delta)
    if same:
        lines += ["", f"{counted(same, 'other index', 'other indexes')}: same cost."]
    lines += [
        "",
        f"#### Findings ({diff.options.profile} check: {f.before:,} before, {f.after:,} after)",
        "",
    ]
    if not (f.new or f.fixed):
        lines.append("None new, none fixed.")
    lines += [f"- new {_md_finding(x)}" for x in f.new]
    lines += [f"- fixed {_md_finding(x)}" for x in f.fixed]
    lines += _md_catalog(diff)
    lines += _md_documents(diff)
    lines += _md_entries(diff)
    lines += _md_links(diff)
    return "\n".join(lines) + "\n"
