"""Draft the OKF frontmatter of a converted document: type, title, description, sources.

Every drafted value comes from the document or its file: the title from its metadata,
its first heading or its cleaned file name; the description from its first informative
sentence (never the title again, one sentence of at most about 200 characters, and it
must pass the checker's own test for descriptions that say nothing); the type from the
source's own hints, the shape of its content and the types the target bundle already
uses. A Markdown source keeps its frontmatter as written; the draft only adds the keys it
lacks (and fills ``type``, ``title`` or ``description`` when they are empty).

Drafts are marked ``status: draft`` and ``generated: {by: kas-tui/<version>, at: <now>}``
so a curator can tell them from reviewed documents; ``sources`` names the original file
with its SHA-256, which is how a second import of the same file is recognised.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import yaml

from .. import __version__
from .. import fields as F
from ..drift import norm, says_nothing
from ..okf import frontmatter as fm
from ..okf import yaml_patch
from ..okf.errors import EditError, FormatError
from ..okf.links import rewrite_links, site_link
from ..okf.timestamp import Timestamp
from . import prose
from .convert import Converted
from .slug import names_in, slugify, unique_slug

if TYPE_CHECKING:
    from ..package import Package

#: The actor written in ``generated.by``.
GENERATOR = f"kas-tui/{__version__}"
#: Longest drafted description (the checker's KAS045 threshold).
MAX_DESCRIPTION = 200
MAX_TITLE = 120

#: Labels of source kinds, as they read in a sentence.
KIND_LABELS = {
    "pdf": "PDF document",
    "docx": "Word document",
    "pptx": "Slide deck",
    "xlsx": "Spreadsheet",
    "xls": "Spreadsheet",
    "csv": "Table",
    "html": "Web page",
    "epub": "E-book",
    "ipynb": "Notebook",
    "msg": "Email message",
    "text": "Text file",
    "code": "Data file",
    "markdown": "Document",
    "file": "Document",
}

_JUNK_TITLE = re.compile(
    r"^(?:\(?(?:untitled|anonymous|unspecified|unknown|none|title|no title)\)?"
    r"|(?:document|presentation|book|workbook|slide|sheet)\s*\d*"
    r"|microsoft (?:word|powerpoint|excel) - .*|.*\.(?:docx?|pptx?|xlsx?|pdf|html?|txt))$",
    re.I,
)
_BOILERPLATE = re.compile(
    r"^(?:skip to|jump to|copyright|©|\(c\)|all rights reserved|table of contents|contents\b"
    r"|click here|sign in|log in|subscribe|share this|posted (?:on|by)|published|last updated"
    r"|updated:|by [A-Z][a-z]+ [A-Z]|menu\b|home\b|search\b|cookie|accept all|read more"
    r"|what's new|page \d+|\d+ min read|this (?:page|site) uses)",
    re.I,
)
#: Types that follow from a file's format alone: they say nothing about its neighbours.
FORMAT_TYPES = frozenset({"Dataset", "Presentation", "Notebook", "Email", "Data"})
_TYPE_HINT_KEYS = ("ms.topic", "topic_type", "doc_type", "doctype", "content_type")
_TYPE_HINTS = {
    "troubleshooting": "Troubleshooting",
    "troubleshoot": "Troubleshooting",
    "how-to": "Procedure",
    "howto": "Procedure",
    "how-to-guide": "Procedure",
    "procedure": "Procedure",
    "tutorial": "Tutorial",
    "quickstart": "Tutorial",
    "conceptual": "Concept",
    "concept": "Concept",
    "overview": "Concept",
    "reference": "Reference",
    "faq": "FAQ",
    "include": "Snippet",
    "policy": "Policy",
    "runbook": "Runbook",
    "glossary": "Glossary",
}
#: Types that mean the same; the bundle's own spelling wins.
_SYNONYMS = [
    {"procedure", "runbook", "how-to", "howto", "guide", "playbook", "instructions"},
    {"troubleshooting", "troubleshooter", "issue", "known issue", "kb", "problem"},
    {"reference", "article", "documentation", "doc", "document"},
    {"faq", "faqs", "q&a"},
    {"dataset", "data", "table", "spreadsheet"},
    {"presentation", "slides", "slide deck", "deck"},
    {"concept", "overview", "explanation"},
]
_TROUBLE_HEADINGS = {
    "symptom",
    "symptoms",
    "cause",
    "causes",
    "resolution",
    "workaround",
    "solution",
    "fix",
    "more information",
    "status",
}


def now_timestamp(now: dt.datetime | None = None) -> Timestamp:
    """``now`` (default: the current time) as an OKF timestamp in UTC: ``...T...Z``."""
    when = (now or dt.datetime.now(dt.timezone.utc)).astimezone(dt.timezone.utc)
    return Timestamp(when.replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ"))


def _mtime_timestamp(mtime: float) -> Timestamp:
    return now_timestamp(dt.datetime.fromtimestamp(mtime, dt.timezone.utc))


# --- the draft ---------------------------------------------------------------------------------


@dataclass
class Draft:
    """A converted document ready to be written: where, with what frontmatter and body.

    ``frontmatter`` is the whole mapping as it will read back (a Markdown source's own
    keys included); ``drafted`` lists the keys the draft wrote or filled. ``render()``
    gives the file's text. The index entry is ``title`` and ``description``.
    """

    converted: Converted
    bundle: str
    slug: str
    frontmatter: dict[str, Any]
    drafted: list[str]
    body: str
    notes: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The document's path in the package (root-relative, POSIX)."""
        return posixpath.join(self.bundle, f"{self.slug}.md") if self.bundle else f"{self.slug}.md"

    @property
    def type(self) -> str:
        return str(self.frontmatter.get("type", ""))

    @property
    def title(self) -> str:
        return str(self.frontmatter.get("title", ""))

    @property
    def description(self) -> str:
        return str(self.frontmatter.get("description", ""))

    @property
    def sha256(self) -> str:
        return self.converted.sha256

    def render(self) -> str:
        """The document's text: frontmatter block, then the body."""
        return render_document(self.converted, self.frontmatter, self.drafted, self.body)

    def set_field(self, key: str, value: Any) -> bool:
        """Set one frontmatter field (:data:`kas_tui.fields.REMOVE` drops it); ``False``
        when it already holds ``value``.

        A Markdown source's own keys are patched in its YAML as written (comments and
        order survive); a new key goes where the editor's order puts it. Raises
        :class:`EditError` or :class:`ValueError`, with the draft as it was, when the
        document would not read back with the new value.
        """
        current = self.frontmatter.get(key, F.REMOVE)
        if value is current or value == current:
            return False
        converted = self.converted
        saved = (self.frontmatter, list(self.drafted), converted.frontmatter)
        saved_text = converted.frontmatter_text
        foreign = converted.frontmatter or {}
        try:
            if value is F.REMOVE:
                self.frontmatter = {k: v for k, v in self.frontmatter.items() if k != key}
            else:
                self.frontmatter = _with_key(self.frontmatter, key, value, F.FORM_FIELDS)
            if converted.frontmatter_text is not None and key in foreign:
                converted.frontmatter_text = F.apply_changes(
                    converted.frontmatter_text, [(key, value)]
                )
                if value is F.REMOVE:
                    converted.frontmatter = {k: v for k, v in foreign.items() if k != key}
                else:
                    converted.frontmatter = {**foreign, key: value}
                if key in self.drafted:
                    self.drafted.remove(key)
            elif value is F.REMOVE:
                if key in self.drafted:
                    self.drafted.remove(key)
            elif key not in self.drafted:
                self.drafted.append(key)
            self.render()  # raises when the file would not read back as intended
        except (EditError, FormatError, ValueError):
            self.frontmatter, self.drafted, converted.frontmatter = saved
            converted.frontmatter_text = saved_text
            raise
        return True


def _with_key(
    mapping: dict[str, Any], key: str, value: Any, order: tuple[str, ...]
) -> dict[str, Any]:
    """``mapping`` with ``key`` set; a new key goes where ``order`` puts it."""
    if key in mapping:
        return {**mapping, key: value}
    before = order[: order.index(key)] if key in order else order
    items = list(mapping.items())
    at = 0
    for i, (k, _) in enumerate(items):
        if k in before:
            at = i + 1
    items.insert(at, (key, value))
    return dict(items)


def draft_document(
    converted: Converted,
    package: Package | None = None,
    bundle: str = "",
    *,
    type: str | None = None,
    root: Path | None = None,
    taken: Iterable[str] | None = None,
    existing_types: Counter[str] | None = None,
    siblings: Iterable[str] = (),
    now: dt.datetime | None = None,
    slug: str | None = None,
    blocks: list[prose.Block] | None = None,
) -> Draft:
    """Draft frontmatter, body and file name for ``converted`` going into ``bundle``.

    ``package`` (or ``root``, ``taken`` and ``existing_types`` when there is no loaded
    package yet, as in a build) gives the names already used in the bundle, the types
    its documents have, and the root ``sources[].resource`` is relative to.
    ``siblings`` are descriptions of the bundle's other documents: a drafted description
    that reads almost the same as one of them is passed over for the next candidate.
    ``type`` overrides the inferred type; ``slug`` the file name. ``blocks`` are the
    body's :func:`~kas_tui.importing.prose.blocks` when the caller has them already.
    """
    bundle = bundle.strip("/")
    if package is not None:
        root = package.root
        if existing_types is None:
            existing_types = Counter(d.type for d in package.documents_in(bundle) if d.type)
        if taken is None:
            taken = names_in(package.root / bundle)
        siblings = [*siblings, *(d.description for d in package.documents_in(bundle))]
    existing_types = existing_types or Counter()
    foreign = dict(converted.frontmatter or {})
    body = converted.markdown
    parsed = blocks if blocks is not None else list(prose.blocks(body))
    notes: list[str] = []

    title = _text(foreign.get("title")) or draft_title(converted, parsed)
    description = _text(foreign.get("description"))
    if not description:
        description = draft_description(converted, title, parsed, siblings=siblings)
    doc_type = (type or "").strip() or _text(foreign.get("type"))
    if not doc_type:
        doc_type = infer_type(converted, title, parsed, existing_types)
    ours: dict[str, Any] = {"type": doc_type, "title": title, "description": description}
    tags = _tags(converted, foreign)
    if tags and "tags" not in foreign:
        ours["tags"] = tags
    if "status" not in foreign:
        ours["status"] = "draft"
    if "generated" not in foreign:
        ours["generated"] = {"by": GENERATOR, "at": now_timestamp(now)}
    source = source_record(converted, root, bundle)
    old_sources = foreign.get("sources")
    if old_sources is None:
        ours["sources"] = [source]
    elif isinstance(old_sources, list):
        if not any(
            isinstance(s, dict) and s.get("sha256") == source["sha256"] for s in old_sources
        ):
            ours["sources"] = [*old_sources, source]
    else:
        notes.append("its own 'sources' is not a list; the original file is not recorded")

    if converted.kind == "html" and converted.properties.get("url"):
        body = absolute_links(body, converted.properties["url"])
    elif converted.kind not in ("markdown", "text", "code"):
        body = unlink_local(body)
    if converted.kind not in ("markdown", "text", "code") and not _starts_with_heading(body):
        body = f"# {title}\n\n{body}"
    frontmatter = dict(foreign)
    drafted: list[str] = []
    for key, value in ours.items():
        if key in foreign and _usable(key, foreign[key]) and key != "sources":
            continue
        frontmatter[key] = value
        drafted.append(key)
    frontmatter = _ordered(frontmatter, foreign)
    if slug is None:
        base = slugify(converted.source.stem)
        slug = unique_slug(base, taken or (), at_root=not bundle)
    return Draft(converted, bundle, slug, frontmatter, drafted, body, notes)


def absolute_links(body: str, base: str) -> str:
    """Relative links of a web page made absolute against its address ``base``."""

    def absolute(target: str) -> str | None:
        if not target or target.startswith("#") or urlsplit(target).scheme:
            return None  # an anchor in the page, or a URL already
        return site_link(base, target)

    return rewrite_links(body, absolute)


_LOCAL = re.compile(
    r"(!?)\[([^\]\n]*)\]\(\s*(?!#)(?![a-zA-Z][\w+.-]*:)(?:<[^>\n]*>|[^)\s]+)[^)\n]*\)"
)


def unlink_local(body: str) -> str:
    """Links to files inside a converted container (an EPUB's chapters, a deck's pictures)
    lead nowhere in the package: keep their words, drop the link."""

    def fix(match: re.Match[str]) -> str:
        text = match.group(2).strip()
        if match.group(1):
            return f"(image: {text})" if text else ""
        return text

    return _LOCAL.sub(fix, body)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _usable(key: str, value: Any) -> bool:
    if key in ("type", "title", "description"):
        return bool(_text(value))
    return value is not None


def _ordered(frontmatter: dict[str, Any], foreign: dict[str, Any]) -> dict[str, Any]:
    """The order the file will have: new type, title and description first, then the
    source's own keys in its order, then the other new keys (as :func:`render_document`)."""
    okf = ["type", "title", "description", "tags", "status", "generated", "sources"]
    new = [k for k in okf if k in frontmatter and k not in foreign]
    head = [k for k in new if k in ("type", "title", "description")]
    tail = [k for k in new if k not in head]
    middle = [k for k in frontmatter if k not in head and k not in tail]
    return {k: frontmatter[k] for k in [*head, *middle, *tail]}


def _starts_with_heading(body: str) -> bool:
    for block in prose.blocks(body, max_lines=40):
        return block.kind == "heading"
    return False


def source_record(converted: Converted, root: Path | None, folder: str = "") -> dict[str, Any]:
    """The ``sources`` entry for the original file: where, name, when, and its SHA-256.

    ``resource`` is, for a file inside the package, its bundle-relative path
    (``/references/report.pdf``); for one outside, its path relative to the document's
    folder ``folder`` (OKF §6.2 reads relative paths from the document, as links are),
    which keeps working while the package and its sources move together, as in one
    repository; without a root, or on another drive, a ``file:`` URL.
    """
    path = Path(os.path.abspath(converted.source))
    resource = path.as_uri()
    if root is not None:
        base = Path(os.path.abspath(root))
        try:
            resource = "/" + path.relative_to(base).as_posix()
        except ValueError:  # outside the package; a file: URL on another drive (Windows)
            with contextlib.suppress(ValueError):
                resource = Path(os.path.relpath(path, base / folder)).as_posix()
    return {
        "resource": resource,
        "title": path.name,
        "last_modified": _mtime_timestamp(converted.mtime),
        "sha256": converted.sha256,
    }


def source_locations(resource: str, root: Path, document: str) -> list[str]:
    """The absolute paths a ``sources[].resource`` of ``document`` may name, most likely
    first (a relative one is read from the document's folder, as :func:`source_record`
    writes it, then from the root, as kas-tui 0.1 wrote it); URLs other than ``file:``
    name no file."""
    if resource.startswith("file:"):
        from urllib.parse import unquote, urlparse

        return [os.path.normpath(unquote(urlparse(resource).path))]
    if "://" in resource or not resource.strip():
        return []
    if resource.startswith("/"):
        return [os.path.normpath(os.path.join(root, resource.lstrip("/")))]
    folder = os.path.join(root, posixpath.dirname(document))
    return [
        os.path.normpath(os.path.join(folder, resource)),
        os.path.normpath(os.path.join(root, resource)),
    ]


# --- title ---------------------------------------------------------------------------------------


def clean_file_title(stem: str) -> str:
    """A file name as a title: ``refund_policy-2026`` -> ``Refund policy 2026``."""
    parts = [p for p in re.split(r"[\s_.\-]+", stem) if p]
    if not parts:
        return "Untitled"
    if not all(p.isupper() for p in parts if p.isalpha()):
        parts = [p.capitalize() if p.isupper() and len(p) > 4 else p for p in parts]
    else:
        parts = [p.lower() for p in parts]
    title = " ".join(parts)
    return title[0].upper() + title[1:]


def _clean_title(text: str) -> str:
    text = " ".join(text.split()).strip(" :-–—|#*")
    return prose.clip(text, MAX_TITLE)


def draft_title(converted: Converted, parsed: list[prose.Block]) -> str:
    """The document's title: its metadata, its first heading, or its cleaned file name."""
    props_title = converted.properties.get("title", "")
    if props_title and not _JUNK_TITLE.match(props_title.strip()) and len(props_title) > 2:
        return _clean_title(props_title)
    if converted.title and not _JUNK_TITLE.match(converted.title.strip()):
        title = converted.title
        if converted.kind == "html" and " | " in title:
            title = title.split(" | ")[0]
        return _clean_title(title)
    if converted.kind not in ("xlsx", "xls", "csv", "code"):
        for n, block in enumerate(parsed[:30]):
            if (
                block.kind == "heading"
                and (block.level == 1 or n == 0)
                and not _JUNK_TITLE.match(block.text)
                and prose.words(block.text)
            ):
                return _clean_title(block.text)
            if block.kind != "heading":
                break
        first = next((b for b in parsed[:3] if b.kind == "paragraph"), None)
        if first is not None and converted.kind in ("docx", "pdf", "text") and _title_like(first):
            return _clean_title(first.text)
    return clean_file_title(converted.source.stem)


def _title_like(block: prose.Block) -> bool:
    text = block.text
    n = len(prose.words(text))
    return (
        3 <= n <= 14
        and len(text) <= 110
        and not text.rstrip().endswith((".", ",", ";"))
        and sum(c.isalpha() for c in text) > len(text) * 0.6
        and not text.isupper()
    )


# --- description ---------------------------------------------------------------------------------


def draft_description(
    converted: Converted,
    title: str,
    parsed: list[prose.Block],
    *,
    siblings: Iterable[str] = (),
) -> str:
    """One informative sentence about the document, at most about 200 characters.

    The first sentence that reads as prose; when it reads almost the same as a sibling's
    description, the next sentence of the same paragraph is tried, then the next
    paragraph's (only as far as the opening paragraphs: further in, a shared description
    is more honest than an off-topic one).
    """
    others = [_sorted_words(s) for s in siblings if s]
    first = ""
    for n, group in enumerate(_candidates(converted, title, parsed)):
        for candidate in group:
            sentence = _finish(candidate)
            if not sentence or says_nothing(sentence, title) or norm(sentence) == norm(title):
                continue
            first = first or sentence
            if not _near_duplicate(sentence, others):
                return sentence
        if first and n >= 2:
            break
    return first or _finish(_structure_sentence(converted, title, parsed))


def _finish(text: str) -> str:
    text = " ".join(text.split()).strip(" -–—:;,")
    if not text:
        return ""
    text = prose.clip(text, MAX_DESCRIPTION - 1)
    if text[-1] not in ".!?…":
        text += "."
    return text[0].upper() + text[1:]


def _sorted_words(text: str) -> str:
    return " ".join(sorted(norm(text).split()))


def _near_duplicate(sentence: str, others: list[str]) -> bool:
    if not others:
        return False
    from rapidfuzz import fuzz

    mine = _sorted_words(sentence)
    return any(fuzz.ratio(mine, other) >= 90 for other in others)


def _candidates(converted: Converted, title: str, parsed: list[prose.Block]) -> Iterator[list[str]]:
    """Groups of candidate sentences, best first: metadata, then paragraph by paragraph."""
    subject = converted.properties.get("subject", "")
    if len(prose.words(subject)) >= 4 and not _JUNK_TITLE.match(subject):
        yield [subject]
    for line in converted.markdown.split("\n", 16)[:15]:  # an EPUB's metadata lines
        match = re.match(r"\*\*Description:\*\*\s*(.+)", line)
        if match:
            yield [match.group(1)]
    seen = 0
    for kinds in (("paragraph",), ("item",)):
        for block in parsed:
            if block.kind not in kinds:
                continue
            seen += 1
            if seen > 80:
                break
            found = _sentences(block.text, title)
            if found:
                yield found


def _sentences(text: str, title: str) -> list[str]:
    if _BOILERPLATE.match(text):
        return []
    return [s for s in prose.sentences(text)[:4] if _prose_like(s) and norm(s) != norm(title)]


def _prose_like(sentence: str) -> bool:
    """Whether a sentence reads as prose: enough words, mostly lower-case, not a list."""
    if _BOILERPLATE.match(sentence):
        return False
    tokens = prose.words(sentence)
    if len(tokens) < 6:
        return False
    lower = sum(1 for t in tokens if t[:1].islower())
    if lower < len(tokens) * 0.4:
        return False
    if sentence.count(",") > len(tokens) / 3:
        return False  # a list of names or values
    letters = sum(c.isalpha() for c in sentence)
    if letters < len(sentence) * 0.6:
        return False
    if sentence.rstrip()[-1:] in ".!?:":
        return True
    return len(tokens) >= 12 and lower >= len(tokens) * 0.6  # a heading-less line of prose


def _structure_sentence(converted: Converted, title: str, parsed: list[prose.Block]) -> str:
    """A description from the document's shape when it has no sentence to offer."""
    label = KIND_LABELS.get(converted.kind, "Document")
    body = converted.markdown
    headings = [
        b.text
        for b in parsed
        if b.kind == "heading" and norm(b.text) != norm(title) and _wordy(b.text)
    ]
    if converted.kind in ("xlsx", "xls", "csv"):
        columns = _table_columns(body)
        sheets = [b.text for b in parsed if b.kind == "heading" and b.level == 2]
        rows = sum(1 for line in body.split("\n") if line.startswith("|")) - 2 * max(1, len(sheets))
        parts = [f"{label} of {max(rows, 0):,} rows"]
        if len(sheets) > 1:
            parts.append(f"in {len(sheets)} sheets ({_join(sheets, 4)})")
        if columns:
            parts.append(f"with columns {_join(columns, 6)}")
        return " ".join(parts)
    if converted.kind == "pptx":
        slides = len(re.findall(r"<!-- Slide number: \d+ -->", body)) or 1
        topics = _join(headings, 4)
        return f"{label} of {slides} slides" + (f" on {topics}" if topics else "")
    if converted.kind == "code" and converted.source.suffix.lower() == ".json":
        keys = _json_keys(converted.source)
        if keys:
            return f"JSON data with the keys {_join(keys, 6)}"
    if len(headings) >= 2:
        return f"{label} covering {_join(headings, 4)}"
    opening = _opening(body)
    if opening:
        return f"{label} whose text opens with “{opening}”"
    return f"{label} imported from {converted.source.name}"


def _wordy(text: str) -> bool:
    """Whether a heading is words (``Refund rules``), not figures (``TOTAL $821.14``)."""
    letters = sum(c.isalpha() or c.isspace() for c in text)
    return len(text) <= 80 and letters >= 0.8 * len(text)


def _json_keys(path: Path) -> list[str]:
    import json

    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return []
    if isinstance(data, dict):
        return [str(k) for k in data][:50]
    if isinstance(data, list) and data and isinstance(data[0], dict):
        return [str(k) for k in data[0]][:50]
    return []


def _table_columns(markdown: str) -> list[str]:
    for line in markdown.split("\n"):
        if line.startswith("|"):
            cells = [prose.inline_text(c) for c in line.strip().strip("|").split("|")]
            return [c for c in cells if c and not c.startswith("Unnamed")]
    return []


def _opening(markdown: str) -> str:
    lines = []
    for raw in markdown.split("\n")[:40]:
        text = prose.inline_text(raw.strip().strip("|#>=-"))
        if text and any(c.isalpha() for c in text) and not text.startswith("<!--"):
            lines.append(text.strip(" |"))
        if sum(len(x) for x in lines) > 110:
            break
    return prose.clip(", ".join(lines), 120).rstrip(".")


def _join(items: list[str], limit: int) -> str:
    items = [i for i in dict.fromkeys(items) if i]
    if not items:
        return ""
    shown = items[:limit]
    more = len(items) - len(shown)
    if more:
        return f"{', '.join(shown)} and {more} more"
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


# --- type ----------------------------------------------------------------------------------------


def infer_type(
    converted: Converted,
    title: str,
    parsed: list[prose.Block],
    existing: Counter[str] | None = None,
) -> str:
    """The document's type: a hint in its metadata, the shape of its content, its bundle.

    A strong signal (a troubleshooting article's Symptoms/Cause/Resolution headings, a
    spreadsheet, an FAQ) decides; otherwise the bundle's most common type, else
    ``Reference``. A type the bundle already spells another way is spelled its way.
    """
    existing = existing or Counter()
    guess = content_type(converted, title, parsed)
    if guess is None:
        guess = existing.most_common(1)[0][0] if existing else "Reference"
    return _bundle_spelling(guess, existing)


def content_type(converted: Converted, title: str, parsed: list[prose.Block]) -> str | None:
    """The type the document itself makes evident (its hints, format, headings), if any."""
    foreign = converted.frontmatter or {}
    for key in _TYPE_HINT_KEYS:
        hint = foreign.get(key)
        if isinstance(hint, str) and hint.strip().lower() in _TYPE_HINTS:
            return _TYPE_HINTS[hint.strip().lower()]
    kind = converted.kind
    if kind in ("xlsx", "xls", "csv"):
        return "Dataset"
    if kind == "pptx":
        return "Presentation"
    if kind == "ipynb":
        return "Notebook"
    if kind == "msg":
        return "Email"
    lowered = title.lower()
    headings = {b.text.lower().rstrip(":") for b in parsed if b.kind == "heading"}
    questions = sum(1 for b in parsed if b.kind == "heading" and b.text.endswith("?"))
    if len(headings & _TROUBLE_HEADINGS) >= 2 or lowered.startswith(("troubleshoot", "fix ")):
        return "Troubleshooting"
    if "faq" in lowered.split() or "frequently asked" in lowered or questions >= 3:
        return "FAQ"
    if "glossary" in lowered:
        return "Glossary"
    if "policy" in lowered.split() or "policies" in lowered.split():
        return "Policy"
    if "release notes" in lowered or "changelog" in lowered:
        return "Release notes"
    if lowered.startswith(("how to ", "how do ")) or headings & {"steps", "procedure"}:
        return "Procedure"
    if kind == "code":
        return "Data"
    return None


def _bundle_spelling(guess: str, existing: Counter[str]) -> str:
    lowered = guess.lower()
    group = next((g for g in _SYNONYMS if lowered in g), {lowered})
    for name, _count in existing.most_common():
        if name.lower() == lowered or name.lower() in group:
            return name
    return guess


# --- tags ----------------------------------------------------------------------------------------


def _tags(converted: Converted, foreign: dict[str, Any]) -> list[str]:
    raw = converted.properties.get("keywords", "")
    keywords = foreign.get("keywords")
    if isinstance(keywords, list):
        raw = ", ".join(str(k) for k in keywords)
    elif isinstance(keywords, str):
        raw = keywords
    tags = []
    for part in re.split(r"[,;]", raw):
        tag = " ".join(part.split()).lower()
        if tag and len(tag) <= 40 and tag not in tags:
            tags.append(tag)
    return tags[:8]


# --- rendering -----------------------------------------------------------------------------------


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Timestamps plain, multi-line strings as blocks, no anchors, no line wrapping.

    libyaml's emitter when PyYAML has it (a build writes thousands of frontmatters).
    """

    def ignore_aliases(self, data: Any) -> bool:
        return True


_Dumper.add_representer(
    Timestamp,
    lambda d, v: d.represent_scalar("tag:yaml.org,2002:timestamp", str(v)),
)
_Dumper.add_representer(
    str,
    lambda d, v: d.represent_scalar(
        "tag:yaml.org,2002:str", v, style="|" if "\n" in v.rstrip("\n") else None
    ),
)


def dump_yaml(data: dict[str, Any]) -> str:
    """``data`` as block YAML (key order kept), ending in a line break."""
    return yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=10**9,
        default_flow_style=False,
    )


def render_document(
    converted: Converted, frontmatter: dict[str, Any], drafted: list[str], body: str
) -> str:
    """A document's text. A Markdown source's YAML is kept as written; keys are added."""
    yaml_text = converted.frontmatter_text
    if yaml_text is None or not converted.frontmatter:
        text = f"---\n{dump_yaml(frontmatter)}---\n{_body(body)}"
        _check(text, frontmatter)
        return text
    foreign = converted.frontmatter
    added = {k: frontmatter[k] for k in drafted if k not in foreign}
    replaced = [k for k in drafted if k in foreign]
    # type, title and description lead (where readers look first); the rest follows the
    # source's own keys
    first = {k: v for k, v in added.items() if k in ("type", "title", "description")}
    last = {k: v for k, v in added.items() if k not in first}
    head = dump_yaml(first) if first else ""
    tail = dump_yaml(last) if last else ""
    sep = "" if not yaml_text or yaml_text.endswith("\n") else "\n"
    text = f"---\n{head}{yaml_text}{sep}{tail}---\n{body}"
    if replaced:
        for key in replaced:
            text = yaml_patch.set_field(text, key, frontmatter[key])
    try:
        _check(text, frontmatter)
    except ValueError:
        # the source's YAML does not take lines in front of it (a flow mapping): re-render
        text = f"---\n{dump_yaml(frontmatter)}---\n{body}"
        _check(text, frontmatter)
    return text


def _body(body: str) -> str:
    return body if body.startswith("\n") else "\n" + body


def body_text(draft: Draft) -> str:
    """The text after the frontmatter block, as :meth:`Draft.render` writes it."""
    converted = draft.converted
    if converted.frontmatter_text is None or not converted.frontmatter:
        return _body(draft.body)
    return draft.body


def _check(text: str, expected: dict[str, Any]) -> None:
    parsed = fm.parse(text)
    if parsed is None or _plain(parsed.data) != _plain(expected):
        raise ValueError("the drafted frontmatter does not read back as intended")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def updated_text(text: str | None, draft: Draft) -> str:
    """``text`` of a previously imported document, refreshed from a new ``draft``.

    The body and the source record are replaced, ``generated`` is renewed when kas-tui
    wrote it; the curator's title, description, type and every other key are kept
    (an empty ``type``, ``title`` or ``description`` is filled from the draft).
    """
    if text is None:
        raise EditError("the document to update no longer exists")
    parsed = fm.parse(text)
    meta = parsed.data if parsed else {}
    record = next(
        (s for s in draft.frontmatter.get("sources", []) if s.get("sha256") == draft.sha256), None
    )
    if record is not None:
        old = meta.get("sources")
        sources = list(old) if isinstance(old, list) else []
        at = next(
            (
                i
                for i, s in enumerate(sources)
                if isinstance(s, dict)
                and (s.get("resource") == record["resource"] or s.get("title") == record["title"])
            ),
            None,
        )
        if at is None:
            sources.append(record)
        else:
            sources[at] = {**sources[at], **record}
        text = yaml_patch.set_field(text, "sources", sources)
    generated = meta.get("generated")
    if isinstance(generated, dict) and str(generated.get("by", "")).startswith("kas-tui/"):
        text = yaml_patch.set_field(text, "generated", {"by": GENERATOR, "at": now_timestamp()})
    for key in ("type", "title", "description"):
        value = meta.get(key)
        if not (isinstance(value, str) and value.strip()) and draft.frontmatter.get(key):
            text = yaml_patch.set_field(text, key, draft.frontmatter[key])
    block = fm.find_block(text)
    head = text[: block.end] if block else ""
    return head + body_text(draft)
