"""Run the rule catalog over a loaded package.

Every rule reads the same parse: the frontmatter and body scan each document got once
at load time. ``check`` returns a :class:`Report`; formatting lives in ``report.py``.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from kas_tui.core.document_rules import clip, document_findings, key_lines
from kas_tui.core.memory import paused_gc
from kas_tui.core.okf.errors import FormatError
from kas_tui.core.okf.lifecycle import (
    FALSE_NOTE,
    UNSAID,
    entry_note_problem,
    lifecycle_state,
    opening_note,
)
from kas_tui.core.okf.links import resolve
from kas_tui.core.package import Package
from kas_tui.core.records import Document
from kas_tui.features.check.findings import Finding, Report
from kas_tui.features.check.near_duplicates import earliest_alike
from kas_tui.features.check.rule_catalog import BY_CODE, KAS, split_hint
from kas_tui.text.description_verdicts import drifted as _drifted
from kas_tui.text.description_verdicts import not_one_line, says_nothing
from kas_tui.text.folder_summary import description_limit
from kas_tui.text.slug import WINDOWS_RESERVED
from kas_tui.text.tokens import INDEX_TOKEN_BUDGET, MAX_BUNDLE_ENTRIES, estimate_tokens

_WINDOWS_FORBIDDEN = re.compile(r'[<>:"|?*\\\x00-\x1f]')
_AWKWARD = re.compile(r"[^a-z0-9._-]")


def matches(code: str, patterns: Iterable[str]) -> bool:
    """Whether ``code`` matches one of ``patterns`` (full codes or prefixes: ``KAS04``)."""
    return any(code.startswith(p.strip().upper()) for p in patterns if p.strip())


#: the hint of KAS031 for a document --fix cannot list (see ``fixes.missing_entries``)
_UNLISTABLE = (
    "Give the document a description (its frontmatter has none it can read), then add "
    "its entry, or run 'kas-tui check --agent-ready --fix'."
)


class Checker:
    """Holds one run's state; each ``_check_*`` method is one family of rules."""

    def __init__(
        self,
        pkg: Package,
        *,
        agent_ready: bool,
        today: dt.date,
        select: Iterable[str] = (),
        ignore: Iterable[str] = (),
        index_budget: int = INDEX_TOKEN_BUDGET,
    ) -> None:
        self.pkg = pkg
        self.agent_ready = agent_ready
        self.today = today
        self.index_budget = index_budget
        self.select = [s for s in select if s.strip()]
        self.ignore = [s for s in ignore if s.strip()]
        self.findings: list[Finding] = []
        self._key_lines: dict[str, dict[str, int]] = {}
        self._resolved: dict[str, dict[str, Any]] = {}  # folder -> link target -> Target
        self.linked: set[str] = set()  # documents some other document links to
        self._staleness: dict[str, Any] = {}

    # -- plumbing --------------------------------------------------------------------

    def wants(self, code: str) -> bool:
        rule = BY_CODE[code]
        if rule.profile == KAS and not self.agent_ready:
            return False
        if self.select and not matches(code, self.select):
            return False
        return not matches(code, self.ignore)

    def emit(self, code: str, path: str, line: Any, message: str, hint: str | None = None) -> None:
        """Record a finding; ``line`` may be a callable, called only when it is recorded."""
        if self.wants(code):
            rule = BY_CODE[code]
            if callable(line):
                line = line()
            self.findings.append(
                Finding(
                    code, rule.severity, path, line, message, rule.fix if hint is None else hint
                )
            )

    def staleness(self, doc: Document) -> Any:
        """``doc.staleness(today)``, computed once per document and run."""
        found = self._staleness.get(doc.path)
        if found is None:
            found = self._staleness[doc.path] = doc.staleness(self.today)
        return found

    def key_lines(self, path: str) -> dict[str, int]:
        """The lines of ``path``'s top-level frontmatter keys (the file is read once)."""
        if path not in self._key_lines:
            try:
                text = self.pkg.read_text(path)
            except (OSError, ValueError):
                text = ""
            self._key_lines[path] = key_lines(text)
        return self._key_lines[path]

    def key_line(self, path: str, key: str) -> int | None:
        """The line of top-level frontmatter ``key`` in ``path`` (read only when needed)."""
        return self.key_lines(path).get(key)

    # -- the run ---------------------------------------------------------------------

    def run(self, progress: Callable[[str, float], None] | None = None) -> list[Finding]:
        """Run every rule family; ``progress(stage, done)`` hears of each (0.0 to 1.0)."""
        stages: list[tuple[str, Callable[[], None]]] = [
            ("load problems", self._check_load_problems),
            ("house rules", self._check_house_rules),
            ("computations", self._check_computations),
            ("documents", self._check_documents),
            ("links", self._check_links),
            ("file names", self._check_names),
            ("okf_version", self._check_okf_version),
        ]
        if self.agent_ready:
            stages += [
                ("SKILL.md", self._check_skill),
                ("navigation", self._check_navigation),
                ("description quality", self._check_quality),
            ]
        for number, (stage, run) in enumerate(stages):
            if progress is not None:
                progress(stage, number / len(stages))
            run()
        self.findings.sort(key=Finding.sort_key)
        if progress is not None:
            progress("done", 1.0)
        return self.findings

    def _check_computations(self) -> None:
        """Attested Computation contracts (OKF §10): runtime, computation, parameters."""
        from kas_tui.features.check.computations import contract_findings, contract_of

        for doc in self.pkg.documents.values():
            contract = contract_of(self.pkg, doc.path)
            if contract is None:
                continue
            for code, key, message in contract_findings(str(self.pkg.root), contract):
                line = self.key_line(doc.path, key) if key else None
                self.emit(code, doc.path, line or 1, message)

    def _check_house_rules(self) -> None:
        from kas_tui.core.house_rules import HOUSE_RULES_FILE, HouseRulesError

        try:
            rules = self.pkg.house_rules
        except HouseRulesError as exc:
            self.emit("PRF000", HOUSE_RULES_FILE, exc.line, exc.message)
            return
        if rules is not None:
            from kas_tui.features.check.house_rules import check_house_rules

            check_house_rules(self, rules)

    # -- OKF conformance -------------------------------------------------------------

    _LOAD_CODES = {
        "frontmatter": "OKF001",
        "encoding": "OKF002",
        "unreadable": "OKF003",
        "required": "OKF004",
        "duplicate-key": "OKF112",
        "index": "OKF005",
        "log-date": "OKF006",
        "log": "OKF006",
        "log-order": "OKF007",
        "log-empty": "OKF008",
        "large-file": "OKF122",
        "symlink": "OKF123",
        "special-file": "OKF124",
    }

    def _check_load_problems(self) -> None:
        for problem in self.pkg.all_problems():
            code = self._LOAD_CODES.get(problem.code)
            if code is None or problem.severity == "info":
                continue  # SKILL.md problems are checked by the agent-ready rules
            if problem.path == "SKILL.md" and code in ("OKF001", "OKF005", "OKF006"):
                continue
            self.emit(code, problem.path, problem.line, problem.message, problem.hint or None)

    def _check_documents(self) -> None:
        """The one-document rules (their findings come with a check's reads), and staleness."""
        pkg = self.pkg
        ready = pkg.document_findings
        for doc in pkg.documents.values():
            if not doc.has_frontmatter:
                continue
            path = doc.path
            found = ready.get(path)
            if found is None:  # a package loaded without scan (the TUI): run them here
                found = document_findings(
                    doc.meta, pkg.scan(path), lambda path=path: self.key_lines(path), self.wants
                )
            for code, line, message, hint in found:
                self.emit(code, path, line, message, hint)
            if "stale_after" in doc.meta:
                state = self.staleness(doc)
                if state.state == "stale":
                    self.emit(
                        "OKF140",
                        path,
                        lambda path=path: self.key_line(path, "stale_after"),
                        f"{state.describe()} ({doc.meta['stale_after']})",
                    )

    def _check_links(self) -> None:
        pkg = self.pkg
        known = pkg.known_paths()
        rooted: dict[str, Any] = self._resolved.setdefault("/", {})  # '/'-rooted targets
        linked_add = self.linked.add
        sources = list(pkg.documents)
        for path in sources:
            doc = pkg.documents[path]
            if not doc.has_frontmatter:
                continue
            scan = pkg.scan(path)
            folder_cache = self._resolved.setdefault(posixpath.dirname(path), {})
            # Links are (target, text, line) tuples: named ones fresh, plain ones from the cache.
            for link_target, text, line in scan.links:
                if text[:1] == "^":
                    continue  # [^id] with a one-word '[^id]: x' definition: a footnote, not a link
                cache = rooted if link_target[:1] == "/" else folder_cache
                target = cache.get(link_target)
                if target is None:
                    target = cache[link_target] = resolve(path, link_target)
                kind = target.kind
                if kind == "internal":
                    if target.path not in known:
                        shut = pkg.unreadable_folder_of(target.path)
                        what = (
                            f"is in {shut}/, which cannot be read"
                            if shut is not None
                            else "does not exist"
                        )
                        message = f"link to {link_target!r}: {target.path or '/'} {what}"
                        self.emit("OKF120", path, line, message)
                    elif target.path != path:
                        linked_add(target.path)
                elif kind == "outside":
                    self.emit("OKF121", path, line, f"link to {link_target!r} leaves the package")

    def _check_names(self) -> None:
        pkg = self.pkg
        names = [*pkg.documents, *(f.path for f in pkg.indexes.values()), *pkg.logs, *pkg.assets]
        names += [f for f in pkg.folders if f]
        by_folder: dict[tuple[str, str], list[str]] = {}
        for path in sorted(names):
            base = posixpath.basename(path)
            by_folder.setdefault((posixpath.dirname(path), base.lower()), []).append(path)
            stem = base.rsplit(".", 1)[0] if "." in base else base
            if (
                _WINDOWS_FORBIDDEN.search(base)
                or WINDOWS_RESERVED.fullmatch(stem)
                or base[-1] in ". "
            ):
                self.emit(
                    "OKF130", path, None, f"{base!r} is not a valid file name on every system"
                )
            elif _AWKWARD.search(base) and base != "SKILL.md":
                what = "spaces" if " " in base else "upper-case or non-ASCII characters"
                self.emit("OKF131", path, None, f"{base!r} has {what}")
        for same in by_folder.values():
            if len(same) > 1:
                for path in same[1:]:
                    self.emit("OKF130", path, None, f"differs only by case from {same[0]}")

    def _check_okf_version(self) -> None:
        root_index = self.pkg.indexes.get("")
        meta = root_index.index.frontmatter if root_index else None
        if meta and "okf_version" in meta and meta["okf_version"] != "0.2":
            value = meta["okf_version"]
            what = (
                "not a string" if not isinstance(value, str) else "not the version this tool checks"
            )
            self.emit("OKF150", root_index.path, 1, f"okf_version is {value!r}, {what}")

    # -- agent-ready: discovery ------------------------------------------------------

    _SKILL_CODES = {
        "missing-file": "KAS001",
        "no-frontmatter": "KAS002",
        "unclosed": "KAS002",
        "not-mapping": "KAS002",
        "invalid-yaml": "KAS002",
        "unexpected-fields": "KAS003",
        "missing-field": "KAS004",
        "field-type": "KAS004",
        "name-dir-mismatch": "KAS006",
        "description-too-long": "KAS007",
        "compatibility-too-long": "KAS008",
        "metadata-type": "KAS009",
        "body-lines": "KAS010",
        "body-tokens": "KAS010",
    }

    def _check_skill(self) -> None:
        from kas_tui.features.check.skill_rules import validate_skill

        pkg = self.pkg
        name = pkg.skill_file
        if name != "SKILL.md":
            self.emit("KAS011", name, None, f"{name} is the skill file: rename it to SKILL.md")
        if pkg.ignored_skill:
            self.emit(
                "KAS011",
                pkg.ignored_skill,
                None,
                f"{pkg.ignored_skill} beside SKILL.md is ignored: agents read SKILL.md only",
            )
        try:
            text = pkg.read_text(name) if (pkg.root / name).is_file() else None
        except FormatError:
            return  # not UTF-8 or binary: the load reported it (OKF002), as for any document
        except (OSError, ValueError) as exc:
            self.emit("KAS002", name, 1, f"{name} cannot be read: {exc}")
            return
        for problem in validate_skill(pkg.root, text):
            code = self._SKILL_CODES.get(problem.kind, "KAS005")
            self.emit(code, name, problem.line, problem.message)

    # -- agent-ready: documents and navigation ---------------------------------------

    def _check_navigation(self) -> None:
        pkg = self.pkg
        bundles = pkg.bundles()
        for folder in sorted(bundles):
            index = pkg.indexes.get(folder)
            where = f"{folder}/" if folder else "the package root"
            if index is None:
                self.emit(
                    "KAS030",
                    f"{folder}/index.md" if folder else "index.md",
                    None,
                    f"{where} holds documents but no index.md",
                )
                continue
            listed = {item.path for item in index.listings if item.kind in ("document", "bundle")}
            for doc in pkg.documents_in(folder):
                if doc.path not in listed:
                    hint = None if doc.description.strip() else _UNLISTABLE
                    name = posixpath.basename(doc.path)
                    self.emit("KAS031", index.path, None, f"{name} is not listed", hint)
            for sub in pkg.subfolders(folder):
                if sub in bundles and sub not in listed:
                    self.emit(
                        "KAS032", index.path, None, f"{posixpath.basename(sub)}/ is not listed"
                    )
            for item in index.listings:
                line = item.entry.line
                if item.kind in ("missing", "outside"):
                    what = "leaves the package" if item.kind == "outside" else "does not exist"
                    self.emit(
                        "KAS034",
                        index.path,
                        line,
                        f"entry {item.entry.title!r} points at {item.entry.target!r}, which {what}",
                    )
                elif item.kind in ("document", "bundle") and not item.entry.description.strip():
                    self.emit(
                        "KAS033", index.path, line, f"entry {item.entry.title!r} has no description"
                    )
        if not (pkg.root / "log.md").is_file():
            self.emit("KAS035", "log.md", None, "the package has no root log.md")

    def _check_quality(self) -> None:
        pkg = self.pkg
        for index in pkg.indexes.values():
            entries = []
            own = index.own_listings("bundle")  # once, not per entry: 20,000 entries
            for item in index.listings:
                entry, desc = item.entry, item.entry.description.strip()
                if not desc or item.kind not in ("document", "bundle"):
                    continue
                entries.append(item)
                doc = pkg.documents.get(item.path) if item.kind == "document" else None
                limit = description_limit(item.kind == "bundle", own)
                if doc is None:
                    self._check_meaning(index.path, entry.line, desc, entry.title, limit)
                    continue
                if desc != doc.description:
                    self._check_meaning(index.path, entry.line, desc, entry.title, limit)
                    if doc.description and _drifted(desc, doc.description):
                        self.emit(
                            "KAS040",
                            index.path,
                            entry.line,
                            f"entry for {posixpath.basename(doc.path)} says {clip(desc)!r}; the document says {clip(doc.description)!r}",
                        )
                state = lifecycle_state(doc.status, self.staleness(doc).state)
                problem = entry_note_problem(entry.title, desc, state)
                if problem == UNSAID:
                    self.emit(
                        "KAS044",
                        index.path,
                        entry.line,
                        f"{posixpath.basename(doc.path)} is {state} but its entry does not say so",
                    )
                elif problem == FALSE_NOTE:
                    said = opening_note(desc)[0]  # type: ignore[index]
                    self.emit(
                        "KAS044",
                        index.path,
                        entry.line,
                        f"the entry says {posixpath.basename(doc.path)} is {said}, but it is "
                        "not: drop the note",
                    )
            self._check_duplicates(index.path, entries)
        self._check_orphans()
        self._check_sizes()

    def _check_meaning(self, path: str, line: Any, desc: str, title: str, limit: int) -> None:
        """An entry's own description (one that is not its document's): what the editor
        says of it as it is typed, the same verdicts."""
        if says_nothing(desc, title):
            self.emit(
                "KAS042",
                path,
                line,
                f"description {clip(desc)!r} tells an agent nothing it can choose by",
            )
        shape = not_one_line(desc, limit) if self.wants("KAS045") else None
        if shape:
            self.emit("KAS045", path, line, f"entry description {shape}")

    def _check_duplicates(self, path: str, items: list) -> None:
        if len(items) < 2 or not self.wants("KAS041"):
            return
        alike = earliest_alike(
            [item.entry.description for item in items], [item.path for item in items]
        )
        for i, j in sorted(alike.items()):
            self.emit(
                "KAS041",
                path,
                items[i].entry.line,
                f"entries {items[j].entry.title!r} and {items[i].entry.title!r} have near-identical descriptions",
            )

    def _check_sizes(self) -> None:
        """An index over the token budget (KAS046), with too many entries (KAS047) or one."""
        if not any(self.wants(code) for code in ("KAS046", "KAS047", "KAS048")):
            return
        budget = self.index_budget
        for folder, index in sorted(self.pkg.indexes.items()):
            # every entry is a choice the agent weighs, except links to log.md or SKILL.md
            entries = [item for item in index.listings if item.kind != "reserved"]
            tokens = estimate_tokens("".join(index.index.lines))
            if tokens > budget:
                self.emit(
                    "KAS046",
                    index.path,
                    None,
                    f"index.md is about {tokens:,} tokens; the budget is {budget:,}",
                    _split_hint(entries, budget),
                )
            if len(entries) > MAX_BUNDLE_ENTRIES:
                self.emit(
                    "KAS047",
                    index.path,
                    None,
                    f"the bundle lists {len(entries):,} entries; "
                    f"more than {MAX_BUNDLE_ENTRIES} are too many to choose from",
                )
            if folder and len(entries) == 1:
                entry = entries[0].entry
                self.emit(
                    "KAS048",
                    index.path,
                    entry.line,
                    f"{folder}/ lists a single entry, {entry.title!r}",
                )

    def _check_orphans(self) -> None:
        pkg = self.pkg
        listed = {
            item.path
            for f in pkg.indexes.values()
            for item in f.listings
            if item.kind == "document"
        }
        for path in sorted(pkg.documents):
            if posixpath.dirname(path) not in pkg.indexes:
                continue  # KAS030 already says the folder has no index at all
            if path not in listed and path not in self.linked:
                self.emit("KAS043", path, None, "no index lists it and no document links to it")


def _split_hint(entries: list, budget: int) -> str:
    """KAS046's hint: sub-bundles of as many of this index's entries as fit the budget
    (at least a split in two)."""
    if not entries:
        return split_hint()
    average = max(1, sum(estimate_tokens(item.entry.render()) for item in entries) // len(entries))
    fits = min(MAX_BUNDLE_ENTRIES, budget // average, -(-len(entries) // 2))
    return split_hint(max(2, fits))


def check(
    pkg: Package,
    *,
    agent_ready: bool = False,
    today: dt.date | None = None,
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    index_budget: int = INDEX_TOKEN_BUDGET,
    progress: Callable[[str, float], None] | None = None,
) -> Report:
    """Check ``pkg``: OKF conformance, plus the agent-ready rules with ``agent_ready``.

    ``index_budget``: most tokens an index.md may take (KAS046), a positive integer.
    ``progress(stage, done)`` is called before each family of rules (for a UI).
    """
    if isinstance(index_budget, bool) or not isinstance(index_budget, int) or index_budget < 1:
        raise ValueError(f"index_budget must be a positive whole number, not {index_budget!r}")
    started = time.perf_counter()
    today = today or dt.date.today()
    checker = Checker(
        pkg,
        agent_ready=agent_ready,
        today=today,
        select=select,
        ignore=ignore,
        index_budget=index_budget,
    )
    with paused_gc():
        findings = checker.run(progress)
    return Report(
        root=str(pkg.root),
        profile="agent-ready" if agent_ready else "okf",
        today=today,
        documents=len(pkg.documents),
        findings=findings,
        seconds=time.perf_counter() - started,
    )
