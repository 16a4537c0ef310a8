"""``docs/rules.md``, generated from the catalog: ``kas-tui rules > docs/rules.md``."""

from __future__ import annotations

from kas_tui.features.check.house_rules import HOUSE, HOUSE_RULES_FILE
from kas_tui.features.check.rule_catalog import KAS, OKF, RULES

_PROFILES = {
    OKF: (
        "OKF v0.2 conformance (default)",
        "Always run. Errors only for what OKF §11 rejects; everything else is a warning or info.",
    ),
    KAS: (
        "Agent-ready (`--agent-ready`)",
        "The Knowledge-as-Skill checks: discovery (SKILL.md), knowledge and navigation.",
    ),
    HOUSE: (
        f"House rules (`{HOUSE_RULES_FILE}`)",
        f"The package's own rules, in either profile when its root holds `{HOUSE_RULES_FILE}`: "
        'warnings, or errors with `enforce: true` (see checking.md, "House rules").',
    ),
}


def rules_markdown() -> str:
    """The rule reference as Markdown."""
    out = [
        "# kas-tui check: rules\n",
        "Generated from `kas_tui/features/check/rule_catalog.py` by `kas-tui rules`; do not edit by hand.",
        "Codes are stable: never reused or renumbered. Select or skip rules with",
        "`--select` / `--ignore` and full codes or prefixes (`--ignore KAS04,OKF131`).\n",
        "Exit codes: 0 no errors (with `--strict`: no warnings either), 1 findings that",
        "fail, 2 usage or I/O error.\n",
    ]
    for profile, (title, blurb) in _PROFILES.items():
        rules = [r for r in RULES if r.profile == profile]
        out.append(f"## {title}\n\n{blurb}\n")
        out.append("| code | severity | rule | --fix |")
        out.append("|---|---|---|---|")
        for r in rules:
            out.append(
                f"| [{r.code}](#{r.code.lower()}) | {r.severity} | {r.title} | {'yes' if r.fixable else ''} |"
            )
        out.append("")
        for r in rules:
            out.append(
                f"### {r.code}\n\n**{r.title}** ({r.severity})\n\n{r.explanation}\n\n*Fix:* {r.fix}\n"
            )
    return "\n".join(out)
