"""Creating what a package lacks: a new document, a new bundle, a SKILL.md.

Each is planned in full first (``plan_*``: the exact text of every file, where its
index entry goes, or a :class:`CreateError` naming the input at fault), then written by
an edit (``write_*``) that an :class:`~kas_tui.core.edit_session.EditSession` runs as one undoable
action, with one ``log.md`` entry. The TUI (``c``) and ``kas-tui new`` share them.
"""

from kas_tui.features.create.documents import (
    STANDARD_TYPES,
    BundlePlan,
    CreateError,
    DocumentPlan,
    Placement,
    check_file_name,
    check_new_folder,
    default_type,
    draft_file_name,
    place_entry,
    plan_bundle,
    plan_document,
    skeleton,
    types_for,
    write_bundle,
    write_document,
)
from kas_tui.features.create.skill import (
    SkillPlan,
    draft_description,
    has_skill,
    name_problems,
    plan_skill,
    skill_name,
    skill_problems,
    write_skill,
)
from kas_tui.features.create.style import HouseStyle, house_style

__all__ = [
    "STANDARD_TYPES",
    "BundlePlan",
    "CreateError",
    "DocumentPlan",
    "HouseStyle",
    "Placement",
    "SkillPlan",
    "check_file_name",
    "check_new_folder",
    "default_type",
    "draft_description",
    "draft_file_name",
    "has_skill",
    "name_problems",
    "house_style",
    "place_entry",
    "plan_bundle",
    "plan_document",
    "plan_skill",
    "skeleton",
    "skill_name",
    "skill_problems",
    "types_for",
    "write_bundle",
    "write_document",
    "write_skill",
]
