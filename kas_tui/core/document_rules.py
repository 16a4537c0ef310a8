"""The rules that read one document alone, run where the document is read.

A check reads its documents in worker processes; these rules run there too, on the
parse just made, and their findings travel back (and sit in the metadata cache) with
the read, so a warm check never runs them again for an unchanged file. Rules that need
the whole package (links, listings, staleness against ``--today``) stay in the engine,
which also filters by profile, ``--select`` and ``--ignore``. Pure: no package, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kas_tui.core.field_schema import value_error
from kas_tui.core.okf.lifecycle import Form, parse_timestamp
from kas_tui.text.description_verdicts import not_one_line, says_nothing

if TYPE_CHECKING:
    from kas_tui.core.okf.scan import BodyScan

#: (code, line, message, hint): ``hint`` ``None`` means the rule's own fix text.
RawFinding = tuple[str, "int | None", str, "str | None"]

# human:<id>, process:<id> (and other prefixes such as the spec's own team:<id>), tool/1.2
_ACTOR = re.compile(r"[a-z][\w.-]*:\S+|[^\s/:]+/\S+")
_KEY = re.compile(r"([^\s:#][^:]*?)\s*:")


def key_lines(text: str) -> dict[str, int]:
    """The line of each top-level frontmatter key in a document's ``text``."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n", 400)[:400], start=1):
        if number > 1 and line.rstrip() == "---":
            break
        match = _KEY.match(line)
        if match and not line.startswith((" ", "-")):
            lines.setdefault(match.group(1).strip("'\""), number)
    return lines


def document_findings(
    meta: dict[str, Any],
    scan: BodyScan | None,
    lines: Callable[[], dict[str, int]],
    wants: Callable[[str], bool] = lambda code: True,
) -> list[RawFinding]:
    """The findings of the one-document rules for a document with frontmatter ``meta``.

    ``scan`` is its body scan (``None``: the body rules are skipped); ``lines()`` gives
    :func:`key_lines` of its text, asked only when a finding needs a line; rules whose
    code ``wants`` refuses are not run.
    """
    return _Rules(meta, lines, wants).run(scan)


class _Rules:
    def __init__(
        self, meta: dict[str, Any], lines: Callable[[], dict[str, int]], wants: Callable
    ) -> None:
        self.meta = meta
        self._lines = lines
        self._known: dict[str, int] | None = None
        self.wants = wants
        self.found: list[RawFinding] = []

    def line(self, key: str) -> int | None:
        if self._known is None:
            self._known = self._lines()
        return self._known.get(key)

    def emit(self, code: str, key: str | int | None, message: str, hint: str | None = None) -> None:
        if self.wants(code):
            line = self.line(key) if isinstance(key, str) else key
            self.found.append((code, line, message, hint))

    def run(self, scan: BodyScan | None) -> list[RawFinding]:
        self.fields()
        if scan is not None:
            self.body(scan)
        self.ready()
        return self.found

    # -- OKF conformance -----------------------------------------------------------

    def fields(self) -> None:
        meta = self.meta
        if error := value_error("tags", meta.get("tags")):
            self.emit("OKF101", "tags", error)
        if "sources" in meta:
            self.sources(meta["sources"])
        if "generated" in meta:
            generated = meta["generated"]
            if not isinstance(generated, dict):
                self.emit("OKF103", "generated", "generated must be a mapping {by, at}")
            elif not generated.get("by"):
                self.emit("OKF103", "generated", "generated has no 'by' (the actor)")
            else:
                self.actor(generated["by"], "generated", "generated.by")
            if isinstance(generated, dict) and "at" in generated:
                self.time(generated["at"], "generated", "generated.at")
        if "verified" in meta:
            self.verified(meta["verified"])
        if error := value_error("status", meta.get("status")):
            self.emit("OKF105", "status", error)
        if "stale_after" in meta:
            self.time(meta["stale_after"], "stale_after", "stale_after")
        if "usage_window" in meta:
            self.window(meta["usage_window"], "usage_window")
        if "timestamp" in meta:
            self.emit("OKF110", "timestamp", "'timestamp' is OKF v0.1; use generated.at")

    def time(self, value: Any, key: str, what: str) -> None:
        form = parse_timestamp(value).form
        if form is Form.INVALID:
            self.emit("OKF107", key, f"{what} {str(value)!r} is not an ISO 8601 date")
        elif form is Form.NO_OFFSET:
            self.emit("OKF106", key, f"{what} {value} has no UTC offset")
        elif form is Form.DATE_ONLY:
            self.emit(
                "OKF106",
                key,
                f"{what} {value} is a date without a time and UTC offset; "
                f"it is read as {value}T00:00:00Z",
            )

    def actor(self, actor: Any, key: str, what: str) -> None:
        if not isinstance(actor, str) or not _ACTOR.fullmatch(actor.strip()):
            self.emit(
                "OKF111", key, f"{what} {actor!r} is not human:<id>, process:<id> or tool/version"
            )

    def sources(self, sources: Any) -> None:
        if not isinstance(sources, list):
            self.emit("OKF102", "sources", "sources must be a list of mappings")
            return
        for n, source in enumerate(sources, start=1):
            if not isinstance(source, dict):
                self.emit("OKF102", "sources", f"sources entry {n} is not a mapping")
                continue
            if not source.get("resource"):
                self.emit("OKF102", "sources", f"sources entry {n} has no 'resource'")
            count = source.get("usage_count")
            if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
                self.emit("OKF102", "sources", f"sources entry {n}: usage_count must be an integer")
            if "last_modified" in source:
                self.time(source["last_modified"], "sources", f"sources entry {n} last_modified")
            if "author" in source:
                self.actor(source["author"], "sources", f"sources entry {n} author")
            if "usage_window" in source:
                self.window(source["usage_window"], "sources")

    def verified(self, verified: Any) -> None:
        items = [verified] if isinstance(verified, dict) else verified
        if not isinstance(items, list):
            self.emit("OKF104", "verified", "verified must be a list of {by, at} mappings")
            return
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict) or not item.get("by") or "at" not in item:
                self.emit("OKF104", "verified", f"verified entry {n} needs both 'by' and 'at'")
                continue
            self.actor(item["by"], "verified", f"verified entry {n} by")
            self.time(item["at"], "verified", f"verified entry {n} at")

    def window(self, window: Any, key: str) -> None:
        if not isinstance(window, dict) or "from" not in window or "to" not in window:
            self.emit("OKF108", key, "usage_window must be a mapping {from, to}")
            return
        for end in ("from", "to"):
            self.time(window[end], key, f"usage_window.{end}")

    def body(self, scan: BodyScan) -> None:
        missing = scan.footnotes and scan.footnotes - _source_ids(self.meta)
        for label in sorted(missing or ()):
            self.emit("OKF109", None, f"footnote [^{label}] has no sources entry with id {label!r}")
        for level, text, line in scan.headings:
            if level == 1 and text.strip().lower() == "citations":
                self.emit("OKF110", line, "a '# Citations' section is OKF v0.1; use sources")

    # -- agent-ready -----------------------------------------------------------------

    def ready(self) -> None:
        title = _text(self.meta.get("title"))
        desc = _text(self.meta.get("description"))
        if not title:
            self.emit("KAS020", 1, "no 'title' in the frontmatter")
        if not desc:
            self.emit("KAS021", 1, "no 'description' in the frontmatter")
            return
        if self.wants("KAS042") and says_nothing(desc, title):
            self.emit(
                "KAS042",
                "description",
                f"description {clip(desc)!r} tells an agent nothing it can choose by",
            )
        shape = not_one_line(desc) if self.wants("KAS045") else None
        if shape:
            self.emit("KAS045", "description", f"description {shape}")


def _source_ids(meta: dict[str, Any]) -> set[str]:
    sources = meta.get("sources")
    if not isinstance(sources, list):
        return set()
    return {str(s["id"]) for s in sources if isinstance(s, dict) and s.get("id") is not None}


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
