"""Every rule of the catalog: one package that triggers it, one minimal variation that does not.

The tables ``TRIGGERS`` and ``CLEAN`` are keyed by rule code; ``test_every_rule_is_covered``
fails when a rule is added to ``kas_tui.features.check.rule_catalog.RULES`` without both cases. Each
case is a set of changes over ``check_helpers.BASE`` (a package with no finding at all).
The OKF conformance edge cases (OKF §5, §6, §11) follow the tables.
"""

# ruff: noqa: E501  (descriptions and index entries are one long line each)

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kas_tui.core import loader
from kas_tui.features.check import BY_CODE, RULES
from tests.helpers.check import (
    GUIDE_DESCRIPTION,
    INDEX,
    LOG,
    describe,
    doc,
    run,
    skill,
    with_code,
    write_package,
)

Setup = Callable[[Path, pytest.MonkeyPatch], None]


@dataclass(frozen=True)
class Case:
    """Changes over ``BASE``; where the finding is expected (``path``, ``line``)."""

    files: dict[str, str | bytes | None] = field(default_factory=dict)
    path: str = ""
    line: int | None = None
    agent_ready: bool = False
    name: str = "kb"
    setup: Setup | None = None


def _index(*entries: str) -> str:
    """The base root index (Getting started on line 3) followed by ``entries``."""
    return INDEX + "".join(f"{e}\n" for e in entries)


def _entry_index(entry: str) -> str:
    """A root index whose only entry (line 3) is ``entry``."""
    return f"# Example handbook\n\n{entry}\n"


def _unreadable(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """guide.md cannot be opened (running as root, chmod would not stop the read)."""
    real = loader.read_head

    def read_head(path, *how):
        if Path(path).name == "guide.md":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *how)

    monkeypatch.setattr(loader, "read_head", read_head)


def _small_large_limit(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Documents over 2,000 bytes count as very large (instead of 5 MB)."""
    monkeypatch.setattr(loader, "LARGE_DOCUMENT_BYTES", 2_000)


def _symlink_outside(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = root.parent / "elsewhere.md"
    outside.write_text(doc(title="Elsewhere"), encoding="utf-8")
    os.symlink(outside, root / "outside.md")


def _symlink_inside(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    os.symlink("guide.md", root / "alias.md")


def _named_pipe(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A named pipe called like a document: opening it to read would block for ever."""
    (root / "team").mkdir()
    os.mkfifo(root / "team" / "notes.md")


def _pipe_renamed_away(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same pipe, removed and a regular file put in its place."""
    _named_pipe(root, monkeypatch)
    (root / "team" / "notes.md").unlink()
    (root / "team" / "notes.txt").write_text("regular\n", encoding="utf-8")


TEAM_DOC = doc(
    title="Team handbook",
    description="Who is on the team, how to reach them and what each person owns.",
)
TEAM_INDEX = "# Team\n\n* [Team handbook](handbook.md) - Who is on the team, how to reach them and what each person owns.\n"
EXTRA_DOC = doc(
    title="Coffee machine",
    description="Where the office coffee machine is and how to descale it every month.",
)
EXTRA_ENTRY = "* [Coffee machine](extra.md) - Where the office coffee machine is and how to descale it every month."
A_DOC = doc(
    title="Access A", description="How to request access to the production database cluster."
)
B_DOC = doc(
    title="Access B", description="How to request access to the production database clusters."
)
#: A raw table in the root index: about 4,540 tokens (KAS046) or 3,820 (within 4,000).
PRICE_TABLE = (
    "\n| plan | seats | price |\n|---|---|---|\n" + "| plan | 5 seats | 12 EUR a month |\n" * 500
)
SMALL_PRICE_TABLE = (
    "\n| plan | seats | price |\n|---|---|---|\n" + "| plan | 5 seats | 12 EUR a month |\n" * 420
)


def _links(count: int) -> tuple[str, ...]:
    """``count`` index entries (external links: no document to write) besides the guide."""
    return tuple(
        f"* [Chapter {n}](https://example.org/spec/{n}) - Chapter {n} of the specification."
        for n in range(count)
    )


def computation(
    extra: str = "runtime: bigquery", body: str = "# Computation\n\n```sql\nSELECT 1\n```\n"
) -> str:
    """An Attested Computation concept (OKF §10) listed nowhere but well formed."""
    return doc(
        type="Attested Computation",
        title="Revenue",
        description="Recognized revenue for a fiscal year, per Finance.",
        extra=extra,
        body=body,
    )


# fmt: off
TRIGGERS: dict[str, Case] = {
    # --- OKF conformance errors -------------------------------------------------------------
    "OKF001": Case({"guide.md": "# Getting started\n\nNo frontmatter.\n"}, "guide.md", 1),
    "OKF002": Case({"guide.md": b"---\ntype: Guide\n---\n\xff\xfe not UTF-8\n"}, "guide.md", 4),
    "OKF003": Case({}, "guide.md", None, setup=_unreadable),
    "OKF004": Case({"guide.md": doc(type=None)}, "guide.md", 2),
    "OKF005": Case({"sub/index.md": "---\ntitle: Sub\n---\n# Sub\n"}, "sub/index.md", 1),
    "OKF006": Case({"log.md": "# Update log\n\n## 30 November 2026\n* **Update**: Revised.\n"}, "log.md", 3),
    "OKF007": Case({"log.md": LOG + "\n## 2026-11-30\n* **Update**: Revised.\n"}, "log.md", 6),
    "OKF008": Case({"log.md": "# Update log\n\n## 2026-11-30\n\n## 2026-11-02\n* **Initialization**: Created.\n"}, "log.md", 3),
    # --- OKF shape warnings (extra YAML starts on line 5) ----------------------------------
    "OKF101": Case({"guide.md": doc(extra="tags: onboarding")}, "guide.md", 5),
    "OKF102": Case({"guide.md": doc(extra="sources:\n  - title: Wiki page")}, "guide.md", 5),
    "OKF103": Case({"guide.md": doc(extra="generated: { at: 2026-06-30T14:00:00Z }")}, "guide.md", 5),
    "OKF104": Case({"guide.md": doc(extra="verified:\n  - { by: human:ahormati }")}, "guide.md", 5),
    "OKF105": Case({"guide.md": doc(extra="status: published")}, "guide.md", 5),
    "OKF106": Case({"guide.md": doc(extra="stale_after: 2027-06-30T14:00:00")}, "guide.md", 5),
    "OKF107": Case({"guide.md": doc(extra="stale_after: June 2027")}, "guide.md", 5),
    "OKF108": Case({"guide.md": doc(extra="usage_window: 2026-06")}, "guide.md", 5),
    "OKF109": Case({"guide.md": doc(body="A claim.[^wiki]\n\n[^wiki]: The wiki.\n")}, "guide.md", None),
    "OKF110": Case({"guide.md": doc(extra="timestamp: '2026-05-28T22:53:05+00:00'")}, "guide.md", 5),
    "OKF111": Case({"guide.md": doc(extra="generated: { by: maria, at: 2026-06-30T14:00:00Z }")}, "guide.md", 5),
    "OKF112": Case({"guide.md": doc(extra="status: draft\ntype: Policy")}, "guide.md", 6),
    "OKF120": Case({"guide.md": doc(body="See [the FAQ](/faq.md).\n")}, "guide.md", 7),
    "OKF121": Case({"guide.md": doc(body="See [passwords](../../etc/passwd).\n")}, "guide.md", 7),
    "OKF122": Case({"guide.md": doc(body="x" * 3_000 + "\n")}, "guide.md", None, setup=_small_large_limit),
    "OKF123": Case({}, "outside.md", None, setup=_symlink_outside),
    "OKF124": Case({}, "team/notes.md", None, setup=_named_pipe),
    "OKF130": Case({"aux.md": doc(title="Aux")}, "aux.md", None),
    "OKF131": Case({"My Notes.md": doc(title="My notes")}, "My Notes.md", None),
    "OKF140": Case({"guide.md": doc(extra="stale_after: 2026-11-30")}, "guide.md", 5),
    "OKF150": Case({"index.md": "---\nokf_version: 0.2\n---\n" + INDEX}, "index.md", 1),
    # --- agent-ready: SKILL.md --------------------------------------------------------------
    "KAS001": Case({"SKILL.md": None}, "SKILL.md", None, agent_ready=True),
    "KAS002": Case({"SKILL.md": "# Example handbook\n"}, "SKILL.md", 1, agent_ready=True),
    "KAS003": Case({"SKILL.md": skill(extra="when_to_use: Always.")}, "SKILL.md", 4, agent_ready=True),
    "KAS004": Case({"SKILL.md": skill(description=None)}, "SKILL.md", 1, agent_ready=True),
    "KAS005": Case({}, "SKILL.md", 2, agent_ready=True, name="kb--x"),
    "KAS006": Case({"SKILL.md": skill(name="other-kb")}, "SKILL.md", 2, agent_ready=True),
    "KAS007": Case({"SKILL.md": skill(description="x" * 1025)}, "SKILL.md", 3, agent_ready=True),
    "KAS008": Case({"SKILL.md": skill(extra="compatibility: " + "y" * 501)}, "SKILL.md", 4, agent_ready=True),
    "KAS009": Case({"SKILL.md": skill(extra="metadata:\n  version: 1.0")}, "SKILL.md", 5, agent_ready=True),
    "KAS010": Case({"SKILL.md": skill(body="- x\n" * 501)}, "SKILL.md", 6, agent_ready=True),
    "KAS011": Case({"SKILL.md": None, "skill.md": skill()}, "skill.md", None, agent_ready=True),
    # --- agent-ready: documents and navigation ----------------------------------------------
    "KAS020": Case({"guide.md": doc(title=None)}, "guide.md", 1, agent_ready=True),
    "KAS021": Case({"guide.md": doc(description=None)}, "guide.md", 1, agent_ready=True),
    "KAS030": Case(
        {"team/handbook.md": TEAM_DOC, "index.md": _index("* [Team](team/) - Who is on the team and what each person owns.")},
        "team/index.md", None, agent_ready=True,
    ),
    "KAS031": Case(
        {"extra.md": EXTRA_DOC, "guide.md": doc(body="See [coffee](extra.md).\n")},
        "index.md", None, agent_ready=True,
    ),
    "KAS032": Case({"team/handbook.md": TEAM_DOC, "team/index.md": TEAM_INDEX}, "index.md", None, agent_ready=True),
    "KAS033": Case({"index.md": _entry_index("* [Getting started](guide.md)")}, "index.md", 3, agent_ready=True),
    "KAS034": Case({"index.md": _index("* [Gone](gone.md) - A page that was deleted last spring with its attachments.")}, "index.md", 4, agent_ready=True),
    "KAS035": Case({"log.md": None}, "log.md", None, agent_ready=True),
    "KAS040": Case(
        {"index.md": _entry_index("* [Getting started](guide.md) - Where the office coffee machine is and how to descale it.")},
        "index.md", 3, agent_ready=True,
    ),
    "KAS041": Case(
        {"a.md": A_DOC, "b.md": B_DOC, "index.md": _index(
            "* [Access A](a.md) - How to request access to the production database cluster.",
            "* [Access B](b.md) - How to request access to the production database clusters.",
        )},
        "index.md", 5, agent_ready=True,
    ),
    "KAS042": Case({"index.md": _entry_index("* [Getting started](guide.md) - TODO")}, "index.md", 3, agent_ready=True),
    "KAS043": Case({"extra.md": EXTRA_DOC}, "extra.md", None, agent_ready=True),
    "KAS044": Case({"guide.md": doc(extra="status: deprecated")}, "index.md", 3, agent_ready=True),
    "KAS045": Case(
        {"guide.md": doc(description="How a new member sets up access. It also lists the runbooks.")},
        "guide.md", 4, agent_ready=True,
    ),
    "KAS046": Case({"index.md": INDEX + PRICE_TABLE}, "index.md", None, agent_ready=True),
    "KAS047": Case({"index.md": _index(*_links(60))}, "index.md", None, agent_ready=True),
    "KAS048": Case(
        {"team/handbook.md": TEAM_DOC, "team/index.md": TEAM_INDEX, "index.md": _index("* [Team](team/) - Who is on the team and what each person owns.")},
        "team/index.md", 3, agent_ready=True,
    ),
    # --- the package's own rules (.kas-tui.yaml) ---------------------------------------------
    "PRF000": Case({".kas-tui.yaml": "profile:\n  fieldz: {}\n"}, ".kas-tui.yaml", 2),
    "PRF001": Case({".kas-tui.yaml": "profile:\n  fields:\n    owner: {required: true}\n"}, "guide.md", 1),
    "PRF002": Case({".kas-tui.yaml": "profile:\n  fields:\n    tags: {values: [billing]}\n",
                    "guide.md": doc(extra="tags: [onboarding]")}, "guide.md", 5),
    "PRF003": Case({".kas-tui.yaml": "profile:\n  types: [Runbook]\n"}, "guide.md", 2),
    "PRF004": Case({".kas-tui.yaml": "profile:\n  description: {max_chars: 20}\n"}, "guide.md", 4),
    "PRF005": Case({".kas-tui.yaml": "profile:\n  by_type: {Guide: {freshness_days: 30}}\n"}, "guide.md", 1),
    # --- Attested Computation contracts (OKF §10) ----------------------------------------------
    "OKF160": Case({"guide.md": computation(extra="")}, "guide.md", 2),
    "OKF161": Case({"guide.md": computation(extra="runtime: bigquery\ncomputation: sql/revenue.sql", body="Run it.\n")}, "guide.md", 6),
    "OKF162": Case({"guide.md": computation(extra="runtime: bigquery\ncomputation: revenue.sql"), "revenue.sql": "SELECT 1\n"}, "guide.md", 6),
    "OKF163": Case({"guide.md": computation(body="# Computation\n\nAsk Finance.\n")}, "guide.md", 2),
    "OKF164": Case({"guide.md": computation(extra="runtime: bigquery\nparameters:\n  - { name: year }")}, "guide.md", 6),
    "OKF165": Case({"guide.md": computation(extra="runtime: bigquery\nattester:\n  resource: attesters/revenue.py")}, "guide.md", 6),
}

CLEAN: dict[str, Case] = {
    "OKF001": Case({"guide.md": doc()}),
    # A BOM and CRLF line endings occur in the wild and must be read.
    "OKF002": Case({"guide.md": "\ufeff" + doc().replace("\n", "\r\n")}),
    "OKF003": Case({}),
    "OKF004": Case({"guide.md": doc(type="Some Unknown Type")}),
    "OKF005": Case({"index.md": '---\nokf_version: "0.2"\n---\n' + INDEX, "sub/index.md": "# Sub\n"}),
    # a ': summary' suffix is tolerated
    "OKF006": Case({"log.md": "# Update log\n\n## 2026-11-30: Revision\n* **Update**: Revised.\n"}),
    "OKF007": Case({"log.md": "# Update log\n\n## 2026-11-30\n* **Update**: Revised.\n\n## 2026-11-02\n* **Initialization**: Created.\n"}),
    "OKF008": Case({"log.md": "# Update log\n\n## 2026-11-30\n- Revised.\n"}),
    "OKF101": Case({"guide.md": doc(extra="tags: [onboarding, access]")}),
    "OKF102": Case({"guide.md": doc(extra="sources:\n  - resource: https://wiki.example/onboarding\n    usage_count: 12")}),
    "OKF103": Case({"guide.md": doc(extra="generated: { by: human:maria, at: 2026-06-30T14:00:00Z }")}),
    # OKF §5.2: a bare mapping is a one-element list
    "OKF104": Case({"guide.md": doc(extra="verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }")}),
    "OKF105": Case({"guide.md": doc(extra="status: draft")}),
    "OKF106": Case({"guide.md": doc(extra="stale_after: 2027-06-30T14:00:00Z")}),
    "OKF107": Case({"guide.md": doc(extra="stale_after: 2027-06-30T00:00:00Z")}),
    "OKF108": Case({"guide.md": doc(extra="usage_window: { from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z }")}),
    "OKF109": Case({"guide.md": doc(
        extra="sources:\n  - id: wiki\n    resource: https://wiki.example/onboarding",
        body="A claim.[^wiki]\n\n[^wiki]: The wiki.\n",
    )}),
    "OKF110": Case({"guide.md": doc(extra="generated: { by: human:maria, at: 2026-05-28T22:53:05Z }")}),
    "OKF111": Case({"guide.md": doc(extra="generated: { by: kas-tui/0.1.0, at: 2026-06-30T14:00:00Z }")}),
    "OKF112": Case({"guide.md": doc(extra="sources:\n  - {id: a, resource: /a.md}\n  - {id: b, resource: /b.md}")}),
    "OKF120": Case({"guide.md": doc(body="See the [index](/index.md), [the log](log.md#2026-11-02) and [the site](https://example.org/x.md).\n")}),
    "OKF121": Case({"sub/page.md": doc(title="Page", body="Back to the [guide](../guide.md).\n")}),
    "OKF122": Case({}, setup=_small_large_limit),
    "OKF123": Case({}, setup=_symlink_inside),
    "OKF124": Case({}, setup=_pipe_renamed_away),
    "OKF130": Case({"aux-notes.md": doc(title="Aux notes")}),
    "OKF131": Case({"my-notes.md": doc(title="My notes")}),
    "OKF140": Case({"guide.md": doc(extra="stale_after: 2026-12-02")}),
    "OKF150": Case({"index.md": '---\nokf_version: "0.2"\n---\n' + INDEX}),
    "KAS001": Case({}, agent_ready=True),
    "KAS002": Case({}, agent_ready=True),
    "KAS003": Case({"SKILL.md": skill(extra="license: MIT\nallowed-tools: [Read, Grep]")}, agent_ready=True),
    "KAS004": Case({}, agent_ready=True),
    "KAS005": Case({}, agent_ready=True, name="kb-x"),
    "KAS006": Case({}, agent_ready=True),
    "KAS007": Case({"SKILL.md": skill(description="x" * 1024)}, agent_ready=True),
    "KAS008": Case({"SKILL.md": skill(extra="compatibility: " + "y" * 500)}, agent_ready=True),
    "KAS009": Case({"SKILL.md": skill(extra='metadata:\n  version: "1.0"')}, agent_ready=True),
    "KAS010": Case({"SKILL.md": skill(body="- x\n" * 500)}, agent_ready=True),
    "KAS011": Case({}, agent_ready=True),
    "KAS020": Case({}, agent_ready=True),
    "KAS021": Case({}, agent_ready=True),
    "KAS030": Case(
        # references/ holds assets only: not a bundle, needs no index.md
        {"team/handbook.md": TEAM_DOC, "team/index.md": TEAM_INDEX, "references/data.csv": "a,b\n",
         "index.md": _index("* [Team](team/) - Who is on the team and what each person owns.")},
        agent_ready=True,
    ),
    "KAS031": Case({"extra.md": EXTRA_DOC, "index.md": _index(EXTRA_ENTRY)}, agent_ready=True),
    "KAS032": Case(
        {"team/handbook.md": TEAM_DOC, "team/index.md": TEAM_INDEX,
         "index.md": _index("* [Team](team/index.md) - Who is on the team and what each person owns.")},
        agent_ready=True,
    ),
    "KAS033": Case({}, agent_ready=True),
    "KAS034": Case({"index.md": _index("* [Specification](https://example.org/okf) - The format these documents follow.")}, agent_ready=True),
    "KAS035": Case({}, agent_ready=True),
    # a shortened entry that says the same thing is not drift
    "KAS040": Case({"index.md": _entry_index("* [Getting started](guide.md) - How a new team member sets up access and finds the runbooks.")}, agent_ready=True),
    "KAS041": Case(
        {"a.md": A_DOC, "b.md": doc(title="Access B", description="Who approves exceptions to the on-call rota and how to file one."),
         "index.md": _index("* [Access A](a.md) - How to request access to the production database cluster.",
                            "* [Access B](b.md) - Who approves exceptions to the on-call rota and how to file one.")},
        agent_ready=True,
    ),
    "KAS042": Case({}, agent_ready=True),
    # not listed (KAS031) but linked from a document: reachable, so not an orphan
    "KAS043": Case({"extra.md": EXTRA_DOC, "guide.md": doc(body="See [coffee](extra.md).\n")}, agent_ready=True),
    "KAS044": Case(
        {"guide.md": doc(extra="status: deprecated"),
         "index.md": _entry_index(f"* [Getting started](guide.md) - Deprecated: {GUIDE_DESCRIPTION[0].lower()}{GUIDE_DESCRIPTION[1:]}")},
        agent_ready=True,
    ),
    # "e.g." does not end a sentence
    "KAS045": Case({"guide.md": doc(description="How a new member sets up access, e.g. VPN and SSO, and finds the runbooks."),
                    "index.md": _entry_index("* [Getting started](guide.md) - How a new member sets up access, e.g. VPN and SSO, and finds the runbooks.")},
                   agent_ready=True),
    "KAS046": Case({"index.md": INDEX + SMALL_PRICE_TABLE}, agent_ready=True),
    # 60 entries: the guide and 59 links
    "KAS047": Case({"index.md": _index(*_links(59))}, agent_ready=True),
    # the root may list a single entry; a sub-bundle of two is a choice
    "KAS048": Case(
        {"team/handbook.md": TEAM_DOC, "team/extra.md": EXTRA_DOC, "team/index.md": TEAM_INDEX + EXTRA_ENTRY + "\n",
         "index.md": _index("* [Team](team/) - Who is on the team and what each person owns.")},
        agent_ready=True,
    ),
    "PRF000": Case({".kas-tui.yaml": "# no rules yet\n"}),
    "PRF001": Case({".kas-tui.yaml": "profile:\n  fields:\n    owner: {required: true}\n",
                    "guide.md": doc(extra="owner: it-team")}),
    "PRF002": Case({".kas-tui.yaml": "profile:\n  fields:\n    tags: {values: [onboarding, access]}\n",
                    "guide.md": doc(extra="tags: [onboarding]")}),
    "PRF003": Case({".kas-tui.yaml": "profile:\n  types: [Guide, Runbook]\n"}),
    "PRF004": Case({".kas-tui.yaml": "profile:\n  description: {max_chars: 200}\n"}),
    "PRF005": Case({".kas-tui.yaml": "profile:\n  by_type: {Guide: {freshness_days: 30}}\n",
                    "guide.md": doc(extra="verified:\n  - {by: 'human:ana', at: 2026-11-20T00:00:00Z}")}),
    "OKF160": Case({"guide.md": computation()}),
    "OKF161": Case({"guide.md": computation(extra="runtime: bigquery\ncomputation: sql/revenue.sql", body="Run it.\n"),
                    "sql/revenue.sql": "SELECT 1\n"}),
    "OKF162": Case({"guide.md": computation(extra="runtime: bigquery\ncomputation: revenue.sql", body="Run it.\n"), "revenue.sql": "SELECT 1\n"}),
    # the spec's own example: an indented block under '# Computation'
    "OKF163": Case({"guide.md": computation(body="# Computation\n\n    SELECT SUM(amount) FROM revenue\n\nBinds only @year.\n")}),
    "OKF164": Case({"guide.md": computation(extra="runtime: bigquery\nparameters:\n  - { name: year, type: integer, required: true }")}),
    "OKF165": Case({"guide.md": computation(extra="runtime: bigquery\nexecutor:\n  resource: https://runner.example/bq\n  receipt: [job_id]\nattester:\n  resource: /attesters/revenue.py"),
                    "attesters/revenue.py": "def attest(receipt):\n    return True\n"}),
}
# fmt: on


def _run_case(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    root = write_package(tmp_path, case.files, name=case.name)
    if case.setup is not None:
        case.setup(root, monkeypatch)
    return run(root, agent_ready=case.agent_ready)


def test_every_rule_is_covered() -> None:
    """A rule added to the catalog without a trigger and a clean case fails the suite."""
    catalog = [rule.code for rule in RULES]
    assert len(catalog) == len(set(catalog)), "duplicate rule codes in the catalog"
    assert sorted(TRIGGERS) == sorted(catalog), "TRIGGERS must hold exactly the catalog's codes"
    assert sorted(CLEAN) == sorted(catalog), "CLEAN must hold exactly the catalog's codes"


def test_catalog_profiles_match_code_prefixes() -> None:
    for rule in RULES:
        assert rule.severity in ("error", "warning", "info")
        profiles = {"OKF": "okf", "KAS": "agent-ready", "PRF": "house rules"}
        assert rule.profile == profiles[rule.code[:3]]
        assert rule.title and rule.explanation and rule.fix
        # OKF §11: only missing/unparseable frontmatter, a missing type and broken
        # index/log structure are conformance errors.
        if rule.profile == "okf" and rule.severity == "error":
            assert rule.code < "OKF100", rule.code


@pytest.mark.parametrize("agent_ready", [False, True], ids=["okf", "agent-ready"])
def test_base_package_is_clean(tmp_path: Path, agent_ready: bool) -> None:
    report = run(write_package(tmp_path), agent_ready=agent_ready)
    assert report.findings == [], describe(report)
    assert report.documents == 1


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_rule_triggers(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = TRIGGERS[code]
    report = _run_case(case, tmp_path, monkeypatch)
    found = with_code(report, code)
    assert found, f"{code} not reported; got:\n{describe(report)}"
    assert {f.severity for f in found} == {BY_CODE[code].severity}
    assert (case.path, case.line) in [(f.path, f.line) for f in found], describe(report)
    assert all(f.message for f in found)
    assert all(f.hint for f in found), "every finding carries a fix hint"


@pytest.mark.parametrize("code", sorted(CLEAN))
def test_rule_clean_variation(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report = _run_case(CLEAN[code], tmp_path, monkeypatch)
    assert not with_code(report, code), describe(report)


@pytest.mark.parametrize("code", sorted(c for c in TRIGGERS if BY_CODE[c].profile == "agent-ready"))
def test_agent_ready_rules_only_run_with_the_profile(
    code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = TRIGGERS[code]
    root = write_package(tmp_path, case.files, name=case.name)
    report = run(root, agent_ready=False)
    assert not [f for f in report.findings if f.code.startswith("KAS")], describe(report)


def test_select_and_ignore_by_code_and_prefix(tmp_path: Path) -> None:
    root = write_package(
        tmp_path,
        {
            "guide.md": doc(
                extra="tags: onboarding\nstale_after: 2026-11-30T00:00:00Z", body="[x](/nope.md)\n"
            )
        },
    )
    assert {f.code for f in run(root).findings} == {"OKF101", "OKF120", "OKF140"}
    assert {f.code for f in run(root, select=["OKF1"]).findings} == {"OKF101", "OKF120", "OKF140"}
    assert {f.code for f in run(root, select=["OKF12"]).findings} == {"OKF120"}
    assert {f.code for f in run(root, ignore=["OKF140"]).findings} == {"OKF101", "OKF120"}
    assert {f.code for f in run(root, select=["okf1"], ignore=["OKF10"]).findings} == {
        "OKF120",
        "OKF140",
    }


# --- more ways to break the same rule ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("---\ntype: Guide\n# never closed\n", 1),
        ("---\ntype: [Guide\n---\n", 2),  # invalid YAML: the line of the unclosed [
        ("---\n- a\n- b\n---\n", 2),  # a list, not a mapping
        ("", 1),  # an empty file
        ("\n\n", 1),
        ("Title\n---\ntype: Guide\n---\n", 1),  # the block must open on line 1
    ],
    ids=["unterminated", "invalid-yaml", "not-mapping", "empty", "blank", "late-block"],
)
def test_okf001_variants(tmp_path: Path, text: str, line: int) -> None:
    report = run(write_package(tmp_path, {"guide.md": text}))
    assert [(f.path, f.line) for f in with_code(report, "OKF001")] == [("guide.md", line)]
    assert not with_code(report, "OKF004"), "no type error on top of a frontmatter error"


@pytest.mark.parametrize(
    "value", ['""', "''", "5", "[Guide]", "{a: b}", "null", "'   '"], ids=lambda v: v
)
def test_okf004_type_must_be_a_non_empty_string(tmp_path: Path, value: str) -> None:
    report = run(write_package(tmp_path, {"guide.md": f"---\ntype: {value}\n---\n"}))
    assert [(f.path, f.line) for f in with_code(report, "OKF004")] == [("guide.md", 2)]


def test_okf005_root_index_with_other_keys(tmp_path: Path) -> None:
    root_index = '---\nokf_version: "0.2"\ntitle: Handbook\n---\n' + INDEX
    report = run(write_package(tmp_path, {"index.md": root_index}))
    assert [(f.path, f.line) for f in with_code(report, "OKF005")] == [("index.md", 1)]


@pytest.mark.parametrize(
    "name", ["aux.md", "CON.txt", "what?.md", "draft.md.", "a<b>.txt", "nul"], ids=str
)
def test_okf130_names(tmp_path: Path, name: str) -> None:
    text = doc(title="x") if name.endswith(".md") else "data\n"
    report = run(write_package(tmp_path, {name: text}))
    assert name in [f.path for f in with_code(report, "OKF130")], describe(report)


def test_okf130_names_differing_only_by_case(tmp_path: Path) -> None:
    report = run(write_package(tmp_path, {"Guide.md": doc(title="Other")}))
    assert [f.path for f in with_code(report, "OKF130")] == ["guide.md"]
    assert "Guide.md" in with_code(report, "OKF130")[0].message


# --- OKF conformance edge cases -----------------------------------------------------------------


def test_document_with_only_type_is_conformant(tmp_path: Path) -> None:
    """OKF §4.1: a concept carrying just ``type`` is fully conformant."""
    root = write_package(tmp_path, {"note.md": "---\ntype: Note\n---\n"}, base=False)
    report = run(root)
    assert report.count("error") == 0, describe(report)
    assert report.count("warning") == 0, describe(report)
    assert report.documents == 1


def test_missing_index_and_optional_fields_are_never_errors(tmp_path: Path) -> None:
    """OKF §11: no index.md, no log.md, unknown types and keys: not rejected."""
    root = write_package(
        tmp_path,
        {
            "a/b/deep.md": "---\ntype: Something New\nx-custom: {nested: [1, 2]}\n---\nBody\n",
            "index.md": None,
            "log.md": None,
            "SKILL.md": None,
        },
    )
    report = run(root)
    assert report.count("error") == 0, describe(report)
    assert report.count("warning") == 0, describe(report)


TIME_FIELDS = {
    "stale_after": "stale_after: {v}",
    "generated.at": "generated: {{ by: human:maria, at: {v} }}",
    "verified.at": "verified:\n  - {{ by: human:maria, at: {v} }}",
    "last_modified": "sources:\n  - resource: https://wiki.example/x\n    last_modified: {v}",
    "usage_window": "usage_window: {{ from: {v}, to: {v} }}",
}


@pytest.mark.parametrize("field_name", sorted(TIME_FIELDS))
@pytest.mark.parametrize(
    "value",
    [
        "2027-06-30T14:00:00Z",
        "2027-06-30T14:00:00+02:00",
        "'2027-06-30T14:00:00Z'",
        "2027-06-30T14:00Z",
    ],
)
def test_offset_datetimes_are_accepted(tmp_path: Path, field_name: str, value: str) -> None:
    extra = TIME_FIELDS[field_name].format(v=value)
    report = run(write_package(tmp_path, {"guide.md": doc(extra=extra)}))
    assert report.findings == [], describe(report)


@pytest.mark.parametrize("field_name", sorted(TIME_FIELDS))
def test_naive_datetime_is_okf106(tmp_path: Path, field_name: str) -> None:
    extra = TIME_FIELDS[field_name].format(v="2027-06-30T14:00:00")
    report = run(write_package(tmp_path, {"guide.md": doc(extra=extra)}))
    found = with_code(report, "OKF106")
    assert found and {f.line for f in found} == {5}, describe(report)
    assert report.count("error") == 0


@pytest.mark.parametrize("field_name", sorted(TIME_FIELDS))
def test_a_date_alone_is_okf106_and_still_read(tmp_path: Path, field_name: str) -> None:
    """OKF §5: every timestamp is a datetime with an offset; §11: never reject a concept."""
    extra = TIME_FIELDS[field_name].format(v="2026-06-30")
    report = run(write_package(tmp_path, {"guide.md": doc(extra=extra)}))
    found = with_code(report, "OKF106")
    assert found and {f.line for f in found} == {5}, describe(report)
    assert "2026-06-30 is a date without a time and UTC offset" in found[0].message
    assert report.count("error") == 0
    # read as the start of that day in UTC: a date-only stale_after still makes it stale
    assert bool(with_code(report, "OKF140")) is (field_name == "stale_after")


@pytest.mark.parametrize("field_name", sorted(TIME_FIELDS))
def test_unparseable_date_is_okf107(tmp_path: Path, field_name: str) -> None:
    extra = TIME_FIELDS[field_name].format(v="June 2026")
    report = run(write_package(tmp_path, {"guide.md": doc(extra=extra)}))
    found = with_code(report, "OKF107")
    assert found and {f.line for f in found} == {5}, describe(report)
    assert "June 2026" in found[0].message
    assert report.count("error") == 0


@pytest.mark.parametrize(
    ("stale_after", "stale"),
    [
        ("2026-11-30", True),
        ("2026-12-01", True),  # OKF §5.5: stale when now >= stale_after
        ("2026-12-01T00:00:00Z", True),
        ("2026-12-02", False),
        ("2026-12-02T00:00:00Z", False),
    ],
)
def test_staleness_boundary(tmp_path: Path, stale_after: str, stale: bool) -> None:
    report = run(write_package(tmp_path, {"guide.md": doc(extra=f"stale_after: {stale_after}")}))
    assert bool(with_code(report, "OKF140")) is stale, describe(report)


@pytest.mark.parametrize(
    "verified",
    [
        "verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }",
        "verified:\n  by: process:nightly\n  at: 2026-06-25T02:00:00Z",
        "verified:\n  - { by: human:ahormati, at: 2026-06-25T09:00:00Z }\n  - { by: process:nightly, at: 2026-06-26T02:00:00Z }",
        "verified: []",
    ],
    ids=["bare-flow", "bare-block", "list", "empty-list"],
)
def test_verified_forms_are_accepted(tmp_path: Path, verified: str) -> None:
    report = run(write_package(tmp_path, {"guide.md": doc(extra=verified)}))
    assert report.findings == [], describe(report)


@pytest.mark.parametrize(
    "verified",
    ["verified: yes", "verified: [human:ahormati]", "verified: { at: 2026-06-25 }"],
    ids=["scalar", "list-of-strings", "no-by"],
)
def test_malformed_verified_is_a_warning(tmp_path: Path, verified: str) -> None:
    report = run(write_package(tmp_path, {"guide.md": doc(extra=verified)}))
    assert [f.line for f in with_code(report, "OKF104")] == [5], describe(report)
    assert report.count("error") == 0


@pytest.mark.parametrize(
    ("actor", "conventional"),
    [
        ("human:maria", True),
        ("process:finance-nightly", True),
        ("kas-tui/0.1.0", True),
        ("reference_agent/gemini-2.5-pro", True),  # OKF §4.3
        ("team:finance-fpa", True),  # OKF Appendix A, sources[].author
        ("maria", False),
        ("Maria Chen", False),
    ],
)
def test_actor_convention(tmp_path: Path, actor: str, conventional: bool) -> None:
    extra = f"generated: {{ by: '{actor}', at: 2026-06-30T14:00:00Z }}"
    report = run(write_package(tmp_path, {"guide.md": doc(extra=extra)}))
    assert bool(with_code(report, "OKF111")) is not conventional, describe(report)
    assert report.count("warning") == 0 and report.count("error") == 0


FOOTNOTE_SOURCES = "sources:\n  - id: wiki\n    resource: https://wiki.example/onboarding"


def test_footnote_without_source_is_okf109(tmp_path: Path) -> None:
    body = "Access takes a day.[^wiki] VPN first.[^vpn]\n\n[^wiki]: The wiki.\n[^vpn]: VPN notes.\n"
    report = run(write_package(tmp_path, {"guide.md": doc(extra=FOOTNOTE_SOURCES, body=body)}))
    found = with_code(report, "OKF109")
    assert [("guide.md", "vpn" in f.message) for f in found] == [("guide.md", True)], describe(
        report
    )
    assert report.count("error") == 0


@pytest.mark.parametrize("text", ["notes.md", "Wikipedia", "../../etc/passwd"])
def test_footnote_definition_is_not_a_link(tmp_path: Path, text: str) -> None:
    """``[^id]: text`` defines a footnote; it is no link reference to a file named ``text``."""
    body = f"A claim.[^wiki]\n\n[^wiki]: {text}\n"
    report = run(write_package(tmp_path, {"guide.md": doc(extra=FOOTNOTE_SOURCES, body=body)}))
    assert report.findings == [], describe(report)


def test_footnote_definition_with_prose_is_not_a_link(tmp_path: Path) -> None:
    body = "A claim.[^wiki]\n\n[^wiki]: The onboarding page of the wiki.\n"
    report = run(write_package(tmp_path, {"guide.md": doc(extra=FOOTNOTE_SOURCES, body=body)}))
    assert report.findings == [], describe(report)


@pytest.mark.parametrize(
    "body",
    [
        "```text\nA claim.[^nowhere]\n```\n",
        "~~~\nA claim.[^nowhere]\n~~~\n",
        "Example:\n\n    A claim.[^nowhere]\n",
        "Write footnotes as `[^nowhere]` in the body.\n",
    ],
    ids=["backtick-fence", "tilde-fence", "indented-code", "inline-code"],
)
def test_footnote_in_code_is_not_checked(tmp_path: Path, body: str) -> None:
    report = run(write_package(tmp_path, {"guide.md": doc(body=body)}))
    assert not with_code(report, "OKF109"), describe(report)


@pytest.mark.parametrize(
    "body",
    [
        "```markdown\nSee [the FAQ](/faq.md) and [out](../../etc/passwd).\n```\n",
        "~~~\n[the FAQ](/faq.md)\n~~~\n",
        "Example:\n\n    [the FAQ](/faq.md) [out](../../etc/passwd)\n",
        "Write links as `[the FAQ](/faq.md)`.\n",
    ],
    ids=["backtick-fence", "tilde-fence", "indented-code", "inline-code"],
)
def test_link_in_code_is_not_checked(tmp_path: Path, body: str) -> None:
    report = run(write_package(tmp_path, {"guide.md": doc(body=body)}))
    assert report.findings == [], describe(report)


def test_broken_link_is_a_warning_never_an_error(tmp_path: Path) -> None:
    body = "Intro.\n\nSee [the FAQ](/faq.md),\n[setup](setup/vpn.md#linux) and ![a diagram](img/flow.png).\n"
    report = run(write_package(tmp_path, {"guide.md": doc(body=body)}))
    found = with_code(report, "OKF120")
    assert [(f.path, f.line) for f in found] == [
        ("guide.md", 9),
        ("guide.md", 10),
        ("guide.md", 10),
    ]
    assert {f.severity for f in found} == {"warning"}
    assert report.count("error") == 0
    assert not report.fails() and report.fails(strict=True)


def test_links_to_existing_targets_are_fine(tmp_path: Path) -> None:
    body = (
        "[root](/) [index](/index.md) [folder](/team/) [folder index](team/index.md)\n"
        "[csv](references/data%20set.csv) [self](#getting-started) [query](guide.md?x=1)\n"
        "[mail](mailto:a@example.org) [web](https://example.org/missing.md)\n"
    )
    files = {
        "guide.md": doc(body=body),
        "team/index.md": TEAM_INDEX,
        "team/handbook.md": TEAM_DOC,
        "references/data set.csv": "a\n",
    }
    report = run(write_package(tmp_path, files))
    assert not with_code(report, "OKF120"), describe(report)
    assert not with_code(report, "OKF121"), describe(report)


@pytest.mark.parametrize(
    "target",
    [
        "../../etc/passwd",
        "../elsewhere.md",
        "/../elsewhere.md",
        "file:///etc/passwd",
        "C:/Windows/win.ini",
    ],
)
def test_link_leaving_the_package_is_okf121(tmp_path: Path, target: str) -> None:
    report = run(write_package(tmp_path, {"guide.md": doc(body=f"See [it]({target}).\n")}))
    assert [(f.path, f.line) for f in with_code(report, "OKF121")] == [("guide.md", 7)], describe(
        report
    )
    assert not with_code(report, "OKF120")
    assert report.count("error") == 0


def test_relative_link_up_from_a_bundle_stays_inside(tmp_path: Path) -> None:
    files = {"team/deep/page.md": doc(title="Page", body="[guide](../../guide.md)\n")}
    report = run(write_package(tmp_path, files))
    assert not with_code(report, "OKF121"), describe(report)
    assert not with_code(report, "OKF120"), describe(report)


def test_citations_heading_is_okf110_on_its_line(tmp_path: Path) -> None:
    body = "Intro.\n\n# Citations\n\n- https://wiki.example/x\n"
    report = run(write_package(tmp_path, {"guide.md": doc(body=body)}))
    assert [(f.path, f.line) for f in with_code(report, "OKF110")] == [("guide.md", 9)]


def test_kas042_on_a_document_points_at_its_description(tmp_path: Path) -> None:
    files = {
        "guide.md": doc(description="Document about onboarding."),
        "index.md": _entry_index("* [Getting started](guide.md) - Document about onboarding."),
    }
    report = run(write_package(tmp_path, files), agent_ready=True)
    assert [(f.path, f.line) for f in with_code(report, "KAS042")] == [("guide.md", 4)]


@pytest.mark.parametrize(
    "description",
    [
        "File naming conventions for the data lake.",
        "Information security policy for vendors.",
        "Text message templates for outages.",
        "Note-taking rules for incident calls.",
    ],
)
def test_kas042_keeps_specific_descriptions_that_start_with_a_generic_word(
    tmp_path: Path, description: str
) -> None:
    files = {
        "guide.md": doc(description=description),
        "index.md": _entry_index(f"* [Getting started](guide.md) - {description}"),
    }
    report = run(write_package(tmp_path, files), agent_ready=True)
    assert not with_code(report, "KAS042"), describe(report)


@pytest.mark.parametrize(
    ("description", "empty"),
    [
        ("Description", True),
        ("Description goes here.", True),
        ("None", True),
        ("N/A", True),
        ("TODO: write this", True),
        ("Description of refunds.", True),  # like "Document about X": the title again
        ("Description of how refunds are prorated for annual plans in the EU.", False),
        ("None of the legacy plans qualify for a refund after 30 days.", False),
        ("Descriptions of every alert the billing service raises.", False),
    ],
)
def test_kas042_placeholder_words_only_when_they_are_all_there_is(
    description: str, empty: bool
) -> None:
    from kas_tui.text.description_verdicts import says_nothing

    assert says_nothing(description, "Refunds") is empty


@pytest.mark.parametrize(
    ("text", "several"),
    [
        ("Serves U.S. Customers in every region.", False),
        ("Ask Dr. Smith before rotating keys.", False),
        ("Use a canary, e.g. Five percent of traffic.", False),
        ("Rotate the key. Then tell the owners.", True),
        ("Runs nightly (UTC). Then it stops.", True),
        ("Rotate keys. 2 people must approve.", True),
    ],
)
def test_kas045_sentence_split_ignores_abbreviations(text: str, several: bool) -> None:
    from kas_tui.text.description_verdicts import more_than_one_sentence

    assert more_than_one_sentence(text) is several


@pytest.mark.parametrize("agent_ready", [False, True], ids=["okf", "agent-ready"])
def test_okf112_a_repeated_key_names_both_lines_in_both_profiles(
    tmp_path: Path, agent_ready: bool
) -> None:
    """Lines 2 and 6 (``type``), and a repeated key inside a mapping, lines 8 and 10."""
    extra = (
        "status: draft\ntype: Policy\ngenerated:\n  by: human:ana\n  at: 2026-06-30\n  by: human:bo"
    )
    root = write_package(tmp_path, {"guide.md": doc(extra=extra)})
    report = run(root, agent_ready=agent_ready)
    found = [(f.path, f.line, f.severity, f.message) for f in with_code(report, "OKF112")]
    assert found == [
        (
            "guide.md",
            6,
            "warning",
            "frontmatter key 'type' is written twice, on lines 2 and 6: "
            "YAML keeps only the value on line 6",
        ),
        (
            "guide.md",
            10,
            "warning",
            "frontmatter key 'by' is written twice, on lines 8 and 10: "
            "YAML keeps only the value on line 10",
        ),
    ], describe(report)
