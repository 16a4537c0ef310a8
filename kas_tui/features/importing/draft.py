"""The draft record: a converted document's OKF frontmatter, body and file name, ready
to be written, and the text it renders to.

:func:`draft_document` fills ``type``, ``title``, ``description`` and ``tags`` by the
heuristics of :mod:`kas_tui.features.importing.heuristics` (every value from the document or its
file). A Markdown source keeps its frontmatter as written; the draft only adds the keys
it lacks (and fills ``type``, ``title`` or ``description`` when they are empty).
:meth:`Draft.set_field` changes one field as the curator edits it.

Drafts are marked ``status: draft`` and ``generated: {by: kas-tui/<version>, at: <now>}``
so a curator can tell them from reviewed documents; ``sources`` names the original file
with its SHA-256, which is how a second import of the same file is recognised.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import yaml

from kas_tui import __version__
from kas_tui.core import form_fields as F
from kas_tui.core.okf import frontmatter as fm
from kas_tui.core.okf import yaml_patch
from kas_tui.core.okf.errors import EditError, FormatError
from kas_tui.core.okf.lifecycle import now_timestamp
from kas_tui.core.okf.links import rewrite_links, site_link
from kas_tui.core.okf.text import without_controls
from kas_tui.core.okf.timestamp import Timestamp
from kas_tui.features.importing.convert_model import LINKED_KINDS, Converted
from kas_tui.features.importing.doc_types import infer_type
from kas_tui.features.importing.heuristics import (
    clean_file_title,
    draft_description,
    draft_tags,
    draft_title,
    has_own_title,
    is_section_name,
)
from kas_tui.features.importing.source_meta import strip_site_suffix, title_as_shown
from kas_tui.features.importing.source_record import source_record
from kas_tui.text import prose
from kas_tui.text.alike import AlikeSet
from kas_tui.text.description_verdicts import says_nothing
from kas_tui.text.openings import without_preamble
from kas_tui.text.slug import names_in, slugify, unique_slug

if TYPE_CHECKING:
    from kas_tui.core.package import Package

#: A title that is a URL slug (``version-060``), not words.
_SLUG_TITLE = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)+")

#: The actor written in ``generated.by``.
GENERATOR = f"kas-tui/{__version__}"


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

    def with_body(self, body: str, text: str) -> str:
        """Set the body to ``body`` and give the document's text, ``text`` being what
        :meth:`render` gave before: only the body changed, so the frontmatter block is
        kept as it was rendered and checked (a build rewrites the links of every page it
        moves into a sub-bundle)."""
        tail = body_text(self)
        self.body = body
        if not text.endswith(tail):
            return self.render()
        return text[: len(text) - len(tail)] + body_text(self)

    def set_field(self, key: str, value: Any) -> bool:
        """Set one frontmatter field (:data:`kas_tui.core.form_fields.REMOVE` drops it); ``False``
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
    siblings: Iterable[str] | AlikeSet = (),
    common_headings: frozenset[str] = frozenset(),
    shared: Mapping[str, int] | None = None,
    title_hint: str = "",
    hint_names_page: bool = True,
    now: dt.datetime | None = None,
    slug: str | None = None,
    blocks: list[prose.Block] | None = None,
) -> Draft:
    """Draft frontmatter, body and file name for ``converted`` going into ``bundle``.

    ``package`` (or ``root``, ``taken`` and ``existing_types`` when there is no loaded
    package yet, as in a build) gives the names already used in the bundle, the types
    its documents have, and the root ``sources[].resource`` is relative to.
    ``siblings`` are descriptions of the bundle's other documents (an
    :class:`~kas_tui.text.alike.AlikeSet` when a whole folder is drafted): a drafted
    description that reads almost the same as one of them is passed over for the next
    candidate.
    ``type`` overrides the inferred type; ``slug`` the file name. ``blocks`` are the
    body's :func:`~kas_tui.text.prose.blocks` when the caller has them already;
    ``common_headings`` the section names a whole site shares (not worth naming);
    ``shared`` the sentences that open many of its pages (``heuristics.shared_sentences``);
    ``title_hint`` what the source's TOC calls the page, its title when it has none;
    ``hint_names_page``: the site names its pages by their TOC entries (MkDocs' nav), so
    the hint also replaces a title spelled as the file's name.
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
    notes = [*([converted.encoding_note] if converted.encoding_note else []), *converted.notes]

    given_title = _text(foreign.get("title"))
    heading = next((b.text for b in parsed[:30] if b.kind == "heading" and b.level == 1), None)
    title = (
        strip_site_suffix(title_as_shown(given_title), heading)
        if given_title
        else draft_title(converted, parsed)
    )
    # the page's own label in its site's sidebar (Mintlify's sidebarTitle, Docusaurus'
    # sidebar_label), the TOC's name for it else, when it has no title of its own
    label = _text(foreign.get("sidebarTitle")) or _text(foreign.get("sidebar_label"))
    title_hint = title_hint or label
    if title_hint and not given_title:
        named = title != clean_file_title(converted.source.stem)
        generic = is_section_name(title) and not is_section_name(title_hint)
        own = has_own_title(converted, parsed)
        # where the site names its pages by its TOC (MkDocs), the TOC names a page unless
        # it titles itself otherwise; elsewhere (mdBook, GitBook) only a page with no
        # title of its own, neither a heading nor a name other than its file's
        keeps = named or own if not hint_names_page else named and own
        if not keeps or generic:
            # the page has no title of its own, or one any page might open with
            # ("Overview", "References"): the site's TOC names it
            title = title_hint
    own_h1 = any(b.kind == "heading" and b.level == 1 for b in parsed[:30])
    if _SLUG_TITLE.fullmatch(title) and (not given_title or own_h1):
        # a URL slug in the title's place: the page's own heading, never a section's (a
        # babel plugin's page is titled by its package name, then opens with "## Example")
        drafted_title = draft_title(converted, parsed)
        if drafted_title != clean_file_title(converted.source.stem):
            title = drafted_title
    given = given_description(foreign)
    description = own_description(converted)
    if not description:
        description = draft_description(
            converted,
            title,
            parsed,
            siblings=siblings,
            common_headings=common_headings,
            shared=shared,
        )
    doc_type = (type or "").strip() or _text(foreign.get("type"))
    if not doc_type:
        doc_type = infer_type(converted, title, parsed, existing_types)
    # a control character has no place in metadata (a file named with one, a body's ESC)
    title, description = without_controls(title), without_controls(description)
    ours: dict[str, Any] = {"type": doc_type, "title": title, "description": description}
    tags = draft_tags(converted, foreign)
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
    elif converted.kind not in ("text", "code") and converted.kind not in LINKED_KINDS:
        body = unlink_local(body)
    if converted.kind not in ("markdown", "text", "code") and not _starts_with_heading(body):
        body = f"# {title}\n\n{body}"
    frontmatter = dict(foreign)
    drafted: list[str] = []
    for key, value in ours.items():
        # the site's suffix or a slug dropped; the lead-in of the description
        cleaned = (key == "title" and value != given_title) or (
            key == "description" and given and value != given
        )
        if key in foreign and _usable(key, foreign[key]) and key != "sources" and not cleaned:
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


#: Where a page's own frontmatter gives its description: OKF's key, then Dendron's.
DESCRIPTION_KEYS = ("description", "desc")


def given_description(frontmatter: Mapping[str, Any] | None) -> str:
    """The description a source page's own frontmatter gives, as written; ``""`` when
    it gives none."""
    for key in DESCRIPTION_KEYS:
        text = _text((frontmatter or {}).get(key))
        if text:
            return text
    return ""


def own_description(converted: Converted) -> str:
    """The description a page's own frontmatter gives, without a lead-in ("This article
    describes ..."); empty when it has none, or one that tells an agent nothing (its
    title again, as 109 of eclipse-che's AsciiDoc pages write ``:description:``; fewer
    than three words: :func:`~kas_tui.text.description_verdicts.says_nothing`), and one
    is drafted."""
    given = converted.frontmatter or {}
    description = without_preamble(given_description(given))
    if not description:
        return ""
    titles = [_text(given.get("title")), prose.first_heading(converted.markdown, max_lines=200)]
    return "" if any(says_nothing(description, t) for t in titles) else description


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


# --- rendering -----------------------------------------------------------------------------------


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Timestamps plain, multi-line strings as blocks, no anchors, no line wrapping.

    libyaml's emitter when PyYAML has it (a build writes thousands of frontmatters).
    """

    def ignore_aliases(self, data: Any) -> bool:
        return True


class _PythonDumper(yaml.SafeDumper):
    """:class:`_Dumper` in PyYAML's own emitter, which writes a character beyond the
    Basic Multilingual Plane as itself (libyaml escapes an emoji: ``"Eye \\U0001F441"``)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


for _dumper in (_Dumper, _PythonDumper):
    _dumper.add_representer(
        Timestamp,
        lambda d, v: d.represent_scalar("tag:yaml.org,2002:timestamp", str(v)),
    )
    _dumper.add_representer(
        str,
        lambda d, v: d.represent_scalar(
            "tag:yaml.org,2002:str", v, style="|" if "\n" in v.rstrip("\n") else None
        ),
    )


def dump_yaml(data: dict[str, Any]) -> str:
    """``data`` as block YAML (key order kept), ending in a line break."""
    options = {"sort_keys": False, "allow_unicode": True, "width": 10**9}
    text = yaml.dump(data, Dumper=_Dumper, default_flow_style=False, **options)
    if "\\U" in text:  # an emoji escaped: written as itself
        text = yaml.dump(data, Dumper=_PythonDumper, default_flow_style=False, **options)
    return text


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
    own = f"{yaml_text}{sep}"
    patched = [k for k in replaced if (own := _one_line_value(own, k, frontmatter[k])) is not None]
    own = own if len(patched) == len(replaced) else None
    if own is not None:  # each replaced value on its own line: the lines changed alone
        text = f"---\n{head}{own}{tail}---\n{body}"
        try:
            _check(text, frontmatter)
            return text
        except ValueError:
            pass
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


def _one_line_value(yaml_text: str | None, key: str, value: Any) -> str | None:
    """``yaml_text`` with the top-level ``key: ...`` line holding ``value`` instead,
    when the key is there once, on one line of its own (no block or continuation
    below it) and the value is a string; ``None`` otherwise (the YAML patcher then
    does it). The result is checked by reading it back, as every rendering is."""
    if yaml_text is None or not isinstance(value, str):
        return None
    found = list(re.finditer(rf"(?m)^{re.escape(key)}[ \t]*:(?:[ \t].*)?$\n?", yaml_text))
    if len(found) != 1:
        return None
    end = found[0].end()
    following = yaml_text[end : end + 1]
    written = found[0].group().rstrip()
    if following in (" ", "\t", "-") or written.endswith((":", "|", ">")) or " #" in written:
        return None  # a block below, a multi-line scalar, or a comment to keep
    line = dump_yaml({key: value})
    if line.count("\n") != 1:
        return None
    return yaml_text[: found[0].start()] + line + yaml_text[end:]


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
