"""A SKILL.md for a folder of documents that has none: the discovery layer, written once.

The frontmatter holds ``name`` (the Agent Skills rule: lowercase letters, digits and
single hyphens, at most 64 characters, equal to the folder's name) and ``description``
(what the package covers and when to use it, at most 1,024 characters), checked by the
checker's own SKILL.md validation (:func:`kas_tui.features.check.skill_rules.validate_skill`, in
the reference validator's words). The body is the usage skeleton a build writes
(:func:`kas_tui.text.folder_summary.skill_body`: scope, exclusions, navigation, entry
points, freshness, when to stop), drafted from the package's own bundles and indexes.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kas_tui.core import editing
from kas_tui.core import form_fields as F
from kas_tui.core.disk import SKILL_NAMES
from kas_tui.core.okf import index_layout, yaml_patch
from kas_tui.core.okf.errors import EditError
from kas_tui.features.check.skill_rules import validate_skill
from kas_tui.features.create.documents import CreateError, all_or_nothing
from kas_tui.text import folder_summary as summary

if TYPE_CHECKING:
    from kas_tui.core.package import Package
    from kas_tui.core.store import Change

#: The kinds of :func:`validate_skill` problems that do not stop a save (recommendations).
_ADVICE = ("body-lines", "body-tokens")


@dataclass(frozen=True)
class SkillPlan:
    """A new SKILL.md: its name, description and whole text."""

    name: str
    description: str
    text: str

    @property
    def log_message(self) -> str:
        return f"Created [SKILL.md](/SKILL.md) for the skill {self.name}."


def has_skill(pkg: Package) -> bool:
    """Whether the package root holds a skill file (``SKILL.md`` or ``skill.md``)."""
    return pkg.skill is not None or any((pkg.root / n).exists() for n in SKILL_NAMES)


def skill_name(pkg: Package) -> str:
    """The name a new SKILL.md takes: the package folder's name."""
    return pkg.root.resolve().name


def frontmatter_text(name: str, description: str) -> str:
    """The SKILL.md frontmatter block for ``name`` and ``description``."""
    return f"---\n{yaml_patch.render_mapping({'name': name, 'description': description})}---\n"


def skill_problems(pkg: Package, name: str, description: str) -> dict[str, list[str]]:
    """Why ``name`` and ``description`` cannot make a SKILL.md of ``pkg``, by field
    (``name``, ``description``): the validator's own messages; empty when they can."""
    description, error = F.parse_description(description)
    if error:
        return {"description": [error]}
    if description is F.REMOVE:
        description = ""
    try:
        text = frontmatter_text(name.strip(), description)
    except EditError as exc:
        return {"name": [exc.message]}
    found: dict[str, list[str]] = {}
    for problem in validate_skill(pkg.root, text):
        if problem.kind in _ADVICE:
            continue
        field = "description" if "escription" in problem.message else "name"
        found.setdefault(field, []).append(problem.message)
    return found


def name_problems(pkg: Package, name: str) -> list[str]:
    """Why ``name`` cannot be the skill's name (the rule, in the validator's words)."""
    return skill_problems(pkg, name, "-").get("name", [])


def package_facts(pkg: Package) -> summary.PackageFacts:
    """What the SKILL.md draft says of ``pkg``: its bundles (as its root index describes
    them), its root documents, its types and the topics its titles share."""
    root_entries = {listing.path: listing.entry for listing in pkg.listings("")}
    bundles = pkg.bundles()
    counts: Counter[str] = Counter()
    for path in pkg.documents:
        counts[path.split("/", 1)[0] if "/" in path else ""] += 1
    facts_bundles = []
    for folder in pkg.subfolders(""):
        if folder not in bundles:
            continue  # a folder of assets (references/) is no subject
        entry = root_entries.get(folder)
        title = entry.title if entry else index_layout.folder_title(folder)
        description = entry.description if entry and entry.description else ""
        if not description:
            docs = [(d.title, d.type) for d in pkg.documents_in(folder)]
            subs = [
                (index_layout.folder_title(posixpath.basename(s)), 0)
                for s in pkg.subfolders(folder)
            ]
            description = summary.folder_description(title, docs, subs, total=counts[folder])
        facts_bundles.append((folder, title, description, counts[folder]))
    root_documents = sorted(
        ((d.path, d.title, d.description) for d in pkg.documents_in("")),
        key=lambda d: d[1].lower(),
    )
    name = skill_name(pkg)
    return summary.PackageFacts(
        name=name,
        title=index_layout.folder_title(name),
        documents=len(pkg.documents),
        bundles=facts_bundles,
        root_documents=root_documents,
        types=Counter(d.type for d in pkg.documents.values() if d.type),
        kinds=Counter(),
        source="",
        topics=summary.topics([d.title for d in pkg.documents.values()], limit=6),
        root_index="" in pkg.indexes,
    )


def draft_description(pkg: Package) -> str:
    """A first description for the package's SKILL.md, drafted from what it holds."""
    return summary.skill_description(package_facts(pkg))


def plan_skill(pkg: Package, *, description: str, name: str | None = None) -> SkillPlan:
    """Plan the package's SKILL.md; :class:`CreateError` (with the field at fault) when
    the package has one already, or the name or the description breaks the rules."""
    if has_skill(pkg):
        raise CreateError(
            f"{pkg.root} has a SKILL.md already; edit it instead (e on the tree's root)"
        )
    name = skill_name(pkg) if name is None else name.strip()
    problems = skill_problems(pkg, name, description)
    for field in ("name", "description"):
        if problems.get(field):
            raise CreateError("; ".join(problems[field]), field=field)
    value, _ = F.parse_description(description)
    text = "" if value is F.REMOVE else value
    body = summary.skill_body(package_facts(pkg))
    return SkillPlan(name, text, frontmatter_text(name, text) + "\n" + body)


def write_skill(
    pkg: Package, plan: SkillPlan, *, log: bool = True, today: dt.date | None = None
) -> list[Change | None]:
    """Write SKILL.md and log it; all or nothing."""
    steps = [lambda: editing.create_file(pkg, "SKILL.md", plan.text)]
    if log:
        steps.append(lambda: editing.append_log(pkg, "Creation", plan.log_message, today=today))
    return all_or_nothing(pkg, steps)
