"""New documents and new bundles: planned in full, then written as one undoable action.

:func:`plan_document` turns what the curator typed (type, title, description, tags, and
optionally a file name) into the exact text of the new file: frontmatter in the
package's house style (:mod:`kas_tui.features.create.style`) marked ``status: draft`` and
``generated`` by kas-tui now, a body skeleton fitting the type, a file name drafted from
the title (:mod:`kas_tui.text.slug`: one home for file names), and where its index
entry goes (:func:`kas_tui.core.okf.index_layout.list_entries`: one home for the index layout).
:func:`plan_bundle` does the same for a new folder, its ``index.md``
(:func:`kas_tui.core.okf.index_layout.new_index`) and its entry in the parent's index.

:func:`write_document` and :func:`write_bundle` are edits for
:class:`~kas_tui.core.edit_session.EditSession`: every write goes through the package's store
(atomic, created files and folders journalled), a ``log.md`` entry names what was
created, and a write refused half-way takes back what was written before it.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kas_tui.core import editing, field_schema
from kas_tui.core import form_fields as F
from kas_tui.core.okf import index as index_fmt
from kas_tui.core.okf import index_layout
from kas_tui.core.okf.errors import EditError
from kas_tui.core.okf.lifecycle import extend_stale_after, now_timestamp
from kas_tui.features.check.computations import block_language, is_computation_type
from kas_tui.features.create.style import house_style
from kas_tui.features.importing.draft import GENERATOR
from kas_tui.text.slug import (
    name_problem,
    names_in,
    parse_file_name,
    parse_folder,
    slugify,
    unique_slug,
)

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.store import Change

#: Types every package may use, offered after the package's own: the examples of the
#: OKF specification (§4.1) and the ones of the Knowledge-as-Skill rules (RULES.md §2).
STANDARD_TYPES = (
    "Reference",
    "Runbook",
    "Policy",
    "FAQ",
    "Playbook",
    "Metric",
    "API Endpoint",
    "BigQuery Table",
    "BigQuery Dataset",
    "Attested Computation",
)

#: The sections of a new document's body, by type (lower case). Types that mean the same
#: share theirs; OKF's conventional headings (§4.2: Schema, Examples, Computation) go to
#: the types that describe an asset or a computation.
_STEPS = ("When to use", "Steps", "Verify", "Roll back")
SKELETONS: dict[str, tuple[str, ...]] = {
    "runbook": _STEPS,
    "playbook": _STEPS,
    "procedure": ("When to use", "Steps", "Verify"),
    "how-to": ("When to use", "Steps", "Verify"),
    "policy": ("Scope", "Rules", "Exceptions"),
    "checklist": ("Before", "During", "After"),
    "postmortem": ("Summary", "Impact", "Timeline", "Root cause", "Action items"),
    "troubleshooting": ("Symptoms", "Cause", "Resolution"),
    "faq": ("Questions",),
    "glossary": ("Terms",),
    "metric": ("Definition", "Computation"),
    "bigquery table": ("Schema", "Examples"),
    "bigquery dataset": ("Schema", "Examples"),
    "api endpoint": ("Schema", "Examples"),
    "attested computation": ("Computation",),
}


class CreateError(EditError):
    """A creation refused before anything was written; ``field`` names the input at fault
    (``title``, ``file-name``, ``name``, ...), so a form can show the message there."""

    def __init__(self, message: str, *, field: str = "", path: str | None = None) -> None:
        super().__init__(message, path=path)
        self.field = field


# --- choices -----------------------------------------------------------------------------


def types_for(pkg: Package, bundle: str | None = None) -> list[str]:
    """The types to offer: the package's own, most used first (the bundle's before the
    rest when ``bundle`` is given), then the standard types it does not use yet."""
    counts = Counter(d.type for d in pkg.documents.values() if d.type)
    local = (
        Counter(d.type for d in pkg.documents_in(bundle) if d.type) if bundle is not None else {}
    )
    ours = sorted(counts, key=lambda t: (-local.get(t, 0), -counts[t], t.casefold()))
    rules = pkg.usable_house_rules()
    if rules is not None and rules.types:  # the package allows these: only these
        allowed = {t.casefold() for t in rules.types}
        return [t for t in ours if t.casefold() in allowed] + [
            t for t in rules.types if t.casefold() not in {o.casefold() for o in ours}
        ]
    seen = {t.casefold() for t in ours}
    return ours + [t for t in STANDARD_TYPES if t.casefold() not in seen]


def default_type(pkg: Package, bundle: str) -> str:
    """The type a new document of ``bundle`` starts with: the most used there, else in
    the package, else ``Reference``."""
    return types_for(pkg, bundle)[0]


def draft_file_name(pkg: Package, folder: str, title: str, *, fallback: str = "document") -> str:
    """A file (or folder) name for ``title``: its slug, made unique in ``folder``."""
    base = slugify(title, fallback=fallback)
    return unique_slug(base, names_in(pkg.root / folder), at_root=not folder)


def skeleton(type_: str, title: str, description: str, runtime: str = "") -> str:
    """The body of a new document: its title as the heading, the description as the first
    paragraph, and the sections a document of ``type_`` usually has; an Attested
    Computation's section holds the one code block its contract runs (OKF §10.3), in the
    language of its ``runtime``, for the curator to fill."""
    parts = [f"# {' '.join(title.split())}\n", f"\n{description.strip()}\n"]
    parts += [f"\n## {section}\n" for section in SKELETONS.get(type_.strip().casefold(), ())]
    if is_computation_type(type_):
        language = block_language(runtime)
        comment = "--" if language == "sql" else "#"
        parts.append(
            f"\n```{language}\n{comment} The sanctioned computation: bind only the declared "
            f"parameters.\n```\n"
        )
    return "".join(parts)


# --- where an entry goes -----------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """Where a new entry is written: ``index`` (root-relative), its ``section`` (``None``:
    the index has no headings), and the entry's line as written."""

    index: str
    section: str | None
    line: str
    new_index: bool = False
    new_section: bool = False
    listed: bool = False  # an entry already names the path (it pointed at a missing file)

    def describe(self) -> str:
        """One line for the user: ``incidents/index.md, section “Runbooks” (new)``."""
        if self.listed:
            return f"{self.index} already lists it"
        if self.new_index:
            return f"a new {self.index}"
        if self.section is None:
            return f"{self.index}, after its last entry"
        return f"{self.index}, section “{self.section}”" + (" (new)" if self.new_section else "")


def place_entry(pkg: Package, folder: str, entry: index_layout.NewEntry) -> Placement:
    """Where :func:`kas_tui.core.editing.list_entries` will list ``entry`` in ``folder``'s
    index, worked out by running the same policy on the index as the package read it."""
    index_rel = posixpath.join(folder, "index.md") if folder else "index.md"
    found = pkg.indexes.get(folder)
    before = found.index.render() if found is not None else None
    old = index_fmt.parse_index(before) if before is not None else None
    for e in old.entries if old is not None else ():
        if index_layout.resolve_entry_path(folder, e) == entry.path:
            return Placement(index_rel, e.section, e.render().rstrip("\r\n"), listed=True)
    kinds = editing.entry_kinds(pkg, deprecated=False)  # a new draft is never retired
    title = editing.index_title(pkg, folder)
    after = index_layout.list_entries(before, folder, [entry], kinds, title=title)
    new = index_fmt.parse_index(after)
    line = next(e for e in new.entries if index_layout.resolve_entry_path(folder, e) == entry.path)
    sections = {s.title for s in old.sections} if old is not None else set()
    return Placement(
        index_rel,
        line.section,
        line.render().rstrip("\r\n"),
        new_index=before is None,
        new_section=line.section is not None and line.section not in sections,
    )


# --- new documents -----------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentPlan:
    """A new document, ready to be written: where, its text, and its index entry."""

    bundle: str
    slug: str
    frontmatter: dict[str, Any]
    text: str
    placement: Placement

    @property
    def path(self) -> str:
        return posixpath.join(self.bundle, f"{self.slug}.md") if self.bundle else f"{self.slug}.md"

    @property
    def title(self) -> str:
        return str(self.frontmatter["title"])

    @property
    def entry(self) -> index_layout.NewEntry:
        meta = self.frontmatter
        return index_layout.NewEntry(self.path, meta["title"], meta["description"], meta["type"])

    @property
    def log_message(self) -> str:
        return f"Created the draft [{index_fmt.escape_title(self.title)}](/{self.path})."


def check_bundle(pkg: Package, bundle: str) -> str:
    """``bundle`` as a folder of the package (``""``: the root), or :class:`CreateError`."""
    folder = bundle.strip().strip("/")
    if folder not in pkg.folders or not (pkg.root / folder).is_dir():
        where = f"{folder}/" if folder else "the package root"
        raise CreateError(f"{where} is not a folder of this package", field="bundle")
    return folder


def plan_document(
    pkg: Package,
    bundle: str,
    *,
    title: str,
    description: str,
    type: str,
    tags: Iterable[str] = (),
    file_name: str | None = None,
    now: dt.datetime | None = None,
    runtime: str = "",
) -> DocumentPlan:
    """Plan a new draft in ``bundle``; :class:`CreateError` says which input is wrong.

    ``file_name`` (``.md`` optional) must be free in the bundle; without it one is
    drafted from the title. An Attested Computation needs its ``runtime`` (OKF §10.2);
    it gets an empty ``parameters`` list to fill and a code block in its body.
    """
    folder = check_bundle(pkg, bundle)
    values = _document_values(type, title, description, tags)
    if is_computation_type(values["type"]):
        if not runtime.strip():
            raise CreateError(
                "an Attested Computation needs a runtime (bigquery, postgres, dbt, python...)",
                field="runtime",
            )
        values["runtime"] = " ".join(runtime.split())
        values["parameters"] = []
    if file_name is None or not file_name.strip():
        slug = draft_file_name(pkg, folder, values["title"])
    else:
        slug = check_file_name(pkg, folder, file_name)
    values["status"] = "draft"
    values["generated"] = {"by": GENERATOR, "at": now_timestamp(now)}
    values.update(_house_slots(pkg, values, (now or dt.datetime.now(dt.timezone.utc)).date()))
    style = house_style(pkg, folder)
    frontmatter = style.ordered(values)
    try:
        yaml_text = style.render(frontmatter)
    except EditError as exc:
        raise CreateError(exc.message) from None
    body = skeleton(values["type"], values["title"], values["description"], runtime)
    text = f"---\n{yaml_text}---\n{body}"
    path = posixpath.join(folder, f"{slug}.md") if folder else f"{slug}.md"
    entry = index_layout.NewEntry(path, values["title"], values["description"], values["type"])
    return DocumentPlan(folder, slug, frontmatter, text, place_entry(pkg, folder, entry))


def _house_slots(pkg: Package, values: dict[str, Any], today: dt.date) -> dict[str, Any]:
    """What the package's ``.kas-tui.yaml`` requires of the new document and it lacks:
    a field of the package's own an empty slot to fill (``owner: ''``), ``stale_after``
    the type's review cadence from today (else 90 days); other OKF fields (``verified``)
    are left for the curator, as a new draft has no such facts yet."""
    rules = pkg.usable_house_rules()  # a file that cannot be used: check says why
    if rules is None:
        return {}
    slots: dict[str, Any] = {}
    for key, _ in rules.required_for(values["type"]):
        if key in values:
            continue
        if key == "stale_after":
            days = rules.freshness_days(values["type"]) or 90
            slots[key] = extend_stale_after(None, days, today)
        elif field_schema.field(key) is None:
            slots[key] = ""
    return slots


def _document_values(
    type_: str, title: str, description: str, tags: Iterable[str]
) -> dict[str, Any]:
    """The checked frontmatter values the user gave, or :class:`CreateError`."""
    value, error = F.parse_type(type_)
    if error:
        raise CreateError(error, field="type")
    values: dict[str, Any] = {"type": value, **_title_and_description(title, description)}
    tag_list, error = F.parse_tags(", ".join(tags))
    if error:
        raise CreateError(error, field="tags")
    if tag_list is not F.REMOVE:
        values["tags"] = tag_list
    return values


def _title_and_description(title: str, description: str) -> dict[str, str]:
    """The checked title and description (both required), or :class:`CreateError`."""
    value, error = F.parse_title(title)
    if error:
        raise CreateError(error, field="title")
    text, error = F.parse_description(description)
    if text is F.REMOVE:
        error = "a description is required: one sentence saying what it covers and when to read it"
    if error:
        raise CreateError(error, field="description")
    return {"title": value, "description": text}


def check_file_name(pkg: Package, folder: str, text: str) -> str:
    """A typed file name as a free slug of ``folder``, or :class:`CreateError`."""
    slug, problem = parse_file_name(text)
    if slug is not None:
        problem = name_problem(pkg.root, folder, slug, ())
    if slug is None or problem:
        raise CreateError(problem or "a file name is required", field="file-name")
    return slug


def write_document(
    pkg: Package, plan: DocumentPlan, *, log: bool = True, today: dt.date | None = None
) -> list[Change | None]:
    """Write the document, list it in its bundle's index, and log it; all or nothing."""
    steps: list[Callable[[], Change | None]] = [
        lambda: editing.create_file(pkg, plan.path, plan.text),
        lambda: editing.list_entries(pkg, plan.bundle, [plan.entry]),
    ]
    if log:
        steps.append(lambda: editing.append_log(pkg, "Creation", plan.log_message, today=today))
    return all_or_nothing(pkg, steps)


# --- new bundles -------------------------------------------------------------------------


@dataclass(frozen=True)
class BundlePlan:
    """A new bundle: its folder, its ``index.md`` text and its entry in the parent."""

    folder: str
    title: str
    description: str
    index_text: str
    placement: Placement

    @property
    def parent(self) -> str:
        return posixpath.dirname(self.folder)

    @property
    def index(self) -> str:
        return posixpath.join(self.folder, "index.md")

    @property
    def entry(self) -> index_layout.NewEntry:
        return index_layout.NewEntry(self.folder, self.title, self.description, index_layout.BUNDLE)

    @property
    def log_message(self) -> str:
        title = index_fmt.escape_title(self.title)
        return f"Created the bundle [{title}](/{self.index})."


def check_new_folder(pkg: Package, path: str) -> str:
    """``path`` (root-relative) as a new bundle's folder: a slug in an existing folder of
    the package, free there; else :class:`CreateError`."""
    folder, problem = parse_folder(path)
    if folder is None or problem:
        raise CreateError(problem or "not a folder name", field="folder")
    if not folder:
        raise CreateError("required: the new bundle's folder name", field="folder")
    parent = check_bundle(pkg, posixpath.dirname(folder))
    name = posixpath.basename(folder)
    if name in ("index", "log") or (not parent and name == "skill"):
        raise CreateError(f"{name} is one of the package's own names", field="folder")
    if name.lower() in {n.lower() for n in names_in(pkg.root / parent)}:
        raise CreateError(f"{folder} already exists", field="folder")
    return folder


def plan_bundle(pkg: Package, path: str, *, title: str, description: str) -> BundlePlan:
    """Plan the new bundle ``path`` (root-relative; its parent must exist)."""
    folder = check_new_folder(pkg, path)
    values = _title_and_description(title, description)
    text = index_layout.new_index(folder, values["title"], [])
    entry = index_layout.NewEntry(
        folder, values["title"], values["description"], index_layout.BUNDLE
    )
    placement = place_entry(pkg, posixpath.dirname(folder), entry)
    return BundlePlan(folder, values["title"], values["description"], text, placement)


def write_bundle(
    pkg: Package, plan: BundlePlan, *, log: bool = True, today: dt.date | None = None
) -> list[Change | None]:
    """Make the folder with its ``index.md``, list it in its parent, log it; all or nothing."""
    steps: list[Callable[[], Change | None]] = [
        lambda: editing.create_file(pkg, plan.index, plan.index_text, parents=True),
        lambda: editing.list_entries(pkg, plan.parent, [plan.entry]),
    ]
    if log:
        steps.append(lambda: editing.append_log(pkg, "Creation", plan.log_message, today=today))
    changes = all_or_nothing(pkg, steps)
    if not pkg.store.dry_run:
        pkg.load(cache=True)  # a new folder: the package's folders and bundles change
    return changes


# --- writing -----------------------------------------------------------------------------


def all_or_nothing(
    pkg: Package, steps: Sequence[Callable[[], Change | None]]
) -> list[Change | None]:
    """Run ``steps`` (each one write); when one fails, undo the ones before it and raise.

    The writes undone leave no trace on the store's redo stack (a later redo never
    replays them)."""
    store = pkg.store
    mark, redo = len(store.undo_stack), len(store.redo_stack)
    done: list[Change | None] = []
    try:
        for step in steps:
            done.append(step())
    except Exception:
        if not store.dry_run:
            while len(store.undo_stack) > mark:
                editing.undo(pkg)
            del store.redo_stack[redo:]
        raise
    return done
