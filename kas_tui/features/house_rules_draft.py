"""``kas-tui profile init``: house rules drafted from what a package already does.

The draft states the package's current practice as rules, for the curator to tighten:
the types in use (allowed types), the fields every document holds (required), the
fields every document of one type holds (required of that type), the tags in use (a
vocabulary, when there are at most :data:`MAX_VOCABULARY`), and the longest description
rounded up (a cap). So the package passes its own draft on the day it is written, and
the curator edits from there.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from kas_tui.core.field_schema import field, no_value
from kas_tui.core.house_rules import (
    HOUSE_RULES_FILE,
    FieldRule,
    HouseRules,
    TypeRule,
    as_mapping,
)
from kas_tui.core.package import Package

#: A larger set of tags is left out of the draft: a list that long is not a vocabulary.
MAX_VOCABULARY = 60
#: Fields OKF itself already requires or the loader fills: never drafted as required.
_OKF_REQUIRED = {"type"}


def draft_house_rules(package: Package) -> HouseRules:
    """The rules ``package`` already keeps (see the module docstring)."""
    docs = [d for d in package.documents.values() if d.has_frontmatter]
    rules = HouseRules()
    if not docs:
        return rules
    types = Counter(t for d in docs if isinstance(t := d.meta.get("type"), str) and t.strip())
    rules.types = tuple(t for t, _ in sorted(types.items(), key=lambda kv: (-kv[1], kv[0])))
    every = _held_by_all(docs)
    for key in sorted(every - _OKF_REQUIRED):
        rules.fields[key] = FieldRule(key, 0, required=True)
    tags = sorted({t for d in docs for t in d.tags})
    if tags and len(tags) <= MAX_VOCABULARY:
        held = rules.fields.get("tags")
        rules.fields["tags"] = FieldRule("tags", 0, held is not None and held.required, tuple(tags))
    for doc_type in rules.types:
        of_type = [d for d in docs if d.meta.get("type") == doc_type]
        extra = sorted(_held_by_all(of_type) - every - _OKF_REQUIRED)
        if len(of_type) >= 2 and extra:
            rules.by_type[doc_type] = TypeRule(doc_type, 0, tuple(extra))
            for key in extra:  # a rule names only fields OKF or the package declares
                if field(key) is None and key not in rules.fields:
                    rules.fields[key] = FieldRule(key, 0, required=False)
    longest = max((len(d.description.strip()) for d in docs), default=0)
    if longest:
        rules.max_chars = int(math.ceil(longest / 10) * 10)
    return rules


def _held_by_all(docs: list[Any]) -> set[str]:
    held = [{k for k, v in d.meta.items() if not no_value(v)} for d in docs]
    return set.intersection(*held) if held else set()


def house_rules_text(rules: HouseRules, package: Package) -> str:
    """The draft as ``.kas-tui.yaml`` text, a comment saying what it is and how to edit it."""
    import yaml

    documents = sum(1 for d in package.documents.values() if d.has_frontmatter)
    header = (
        f"# {HOUSE_RULES_FILE}: the house rules of {package.name}, drafted by `kas-tui profile\n"
        f"# init` from what its {documents} documents do today, so the package passes them.\n"
        "# Tighten them: `kas-tui check` reports each broken rule (PRF codes) as a warning,\n"
        '# as an error with `enforce: true`. See docs/checking.md, "House rules".\n'
    )
    body = yaml.safe_dump(
        dict(as_mapping(rules)),
        sort_keys=False,
        allow_unicode=True,
        width=88,
        default_flow_style=None,
    )
    tags = {t for d in package.documents.values() for t in d.tags}
    if len(tags) > MAX_VOCABULARY:
        header += (
            f"# Tags: {len(tags)} in use, too many to draft as a vocabulary; to keep to a\n"
            "# fixed set, list it under fields as  tags: {values: [billing, security]}\n"
        )
    return header + body
