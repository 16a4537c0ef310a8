"""Attested Computation concepts (OKF v0.2 §10): the contract read, and its rules.

A concept of ``type: Attested Computation`` carries a sanctioned way to compute a value:
``runtime`` (REQUIRED for this type), ``parameters`` (a list of ``{name, type,
required}``), the computation itself (a ``computation`` file, else one code block under
a ``# Computation`` heading: one or the other), and the ``executor`` and ``attester``
``resource`` s a consumer runs. :func:`read_contract` reads it; :func:`contract_findings`
says what is wrong with it (OKF160-OKF165, warnings: OKF §11 rejects none of this, but a
consumer cannot run or attest a computation it cannot find). ``kas-tui computations``
lists the contracts.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kas_tui.core.okf.links import resolve
from kas_tui.features.check.findings import Rule

if TYPE_CHECKING:
    from kas_tui.core.package import Package

COMPUTATION_TYPE = "attested computation"

#: The contract's fields (OKF §10.2), in the order they are shown, with what each holds.
CONTRACT_FIELDS: dict[str, str] = {
    "runtime": "REQUIRED: how it runs (bigquery, postgres, dbt, python...): what parameters mean",
    "parameters": "the holes an agent may fill: [{name: year, type: integer, required: true}]",
    "computation": "a file holding it; leave out to use the code block under # Computation",
    "executor": "{resource: run instructions or code, receipt: [fields a run returns]}",
    "attester": "{resource: deterministic code that checks a receipt}",
}

#: Runtimes a new computation is offered (OKF §10.2's examples, and more; any word does),
#: with the language of the code block its body holds.
RUNTIMES: dict[str, str] = {
    "bigquery": "sql",
    "postgres": "sql",
    "snowflake": "sql",
    "dbt": "sql",
    "python": "python",
    "Looker": "lookml",
}
OKF = "okf"

COMPUTATION_RULES: tuple[Rule, ...] = (
    Rule(
        "OKF160",
        "warning",
        OKF,
        "Attested Computation without a runtime",
        "OKF §10.2 makes 'runtime' REQUIRED for an Attested Computation: it says how to run "
        "the computation and what its parameters mean.",
        "Add 'runtime: bigquery' (postgres, dbt, python, ...) to the frontmatter.",
    ),
    Rule(
        "OKF161",
        "warning",
        OKF,
        "Computation file not found",
        "The 'computation' field names the file holding the computation (§10.3); a consumer "
        "binds the parameters into it. A path that leads to no file leaves nothing to run.",
        "Fix the path (relative to the document, or '/'-rooted), or drop the field and put "
        "the computation in a code block under '# Computation'.",
    ),
    Rule(
        "OKF162",
        "warning",
        OKF,
        "Computation given twice",
        "OKF §10.3: the computation is a 'computation' file OR one code block under "
        "'# Computation', not both: a consumer cannot tell which one is sanctioned.",
        "Keep one: delete the body's block or the 'computation' field.",
    ),
    Rule(
        "OKF163",
        "warning",
        OKF,
        "Attested Computation without a computation",
        "Neither a 'computation' file nor a code block under a '# Computation' heading "
        "(§10.3), or more than one block there: there is no single sanctioned computation.",
        "Add one fenced code block under '# Computation', or a 'computation' path.",
    ),
    Rule(
        "OKF164",
        "warning",
        OKF,
        "Malformed parameters",
        "OKF §10.2: 'parameters' is a list of the typed, named holes an agent may fill, each "
        "'{ name, type, required }'; the agent may supply values for these only.",
        "Write each as '- { name: year, type: integer, required: true }'.",
    ),
    Rule(
        "OKF165",
        "warning",
        OKF,
        "Executor or attester resource not found",
        "'executor.resource' names how the computation is run and 'attester.resource' the "
        "deterministic check of a run's receipt (§10.2); a path leading to no file leaves a "
        "consumer unable to run or attest it.",
        "Fix the path (relative to the document, or '/'-rooted), or give a URL.",
    ),
)


@dataclass
class Contract:
    """An Attested Computation's contract as written (see the module docstring)."""

    path: str
    runtime: str | None = None
    parameters: Any = None
    computation: str | None = None
    #: ``(line, language)`` of each code block under the ``# Computation`` heading
    blocks: list[tuple[int, str]] = field(default_factory=list)
    executor: str | None = None
    receipt: list[str] = field(default_factory=list)
    attester: str | None = None

    def parameter_problem(self) -> str | None:
        """What is wrong with ``parameters``, or ``None`` (absent is fine: no holes)."""
        value = self.parameters
        if value is None:
            return None
        if not isinstance(value, list):
            return "parameters must be a list of { name, type, required }"
        for n, item in enumerate(value, start=1):
            if not isinstance(item, dict):
                return f"parameter {n} is not a mapping {{ name, type, required }}"
            name = item.get("name")
            if not isinstance(name, str) or not name.strip():
                return f"parameter {n} has no name"
            if not isinstance(item.get("type"), str) or not str(item.get("type")).strip():
                return f"parameter {name!r} has no type"
            if "required" in item and not isinstance(item["required"], bool):
                return f"parameter {name!r}: required must be true or false"
        names = [item["name"] for item in value]
        doubled = sorted({n for n in names if names.count(n) > 1})
        return f"parameter {doubled[0]!r} is declared twice" if doubled else None


def is_computation(meta: dict[str, Any]) -> bool:
    return is_computation_type(meta.get("type"))


def is_computation_type(value: Any) -> bool:
    """Whether a ``type`` value names an Attested Computation (in any case)."""
    return isinstance(value, str) and value.strip().casefold() == COMPUTATION_TYPE


def block_language(runtime: str) -> str:
    """The language of the code block a computation of ``runtime`` holds ("" if unknown)."""
    folded = {name.casefold(): language for name, language in RUNTIMES.items()}
    return folded.get(runtime.strip().casefold(), "")


def read_contract(path: str, meta: dict[str, Any], body: str, body_line: int) -> Contract:
    """The contract of the document ``path`` (``body`` starts on file line ``body_line``)."""

    def text(value: Any) -> str | None:
        return value.strip() if isinstance(value, str) and value.strip() else None

    def resource(value: Any) -> str | None:
        return text(value.get("resource")) if isinstance(value, dict) else text(value)

    executor = meta.get("executor")
    receipt = executor.get("receipt") if isinstance(executor, dict) else None
    return Contract(
        path,
        runtime=text(meta.get("runtime")),
        parameters=meta.get("parameters"),
        computation=text(meta.get("computation")),
        blocks=_computation_blocks(body, body_line),
        executor=resource(executor),
        receipt=[str(r) for r in receipt] if isinstance(receipt, list) else [],
        attester=resource(meta.get("attester")),
    )


def contract_of(package: Package, path: str) -> Contract | None:
    """The contract of ``package``'s document ``path``; ``None`` when it is not an
    Attested Computation, or its text cannot be read (the load reported why)."""
    doc = package.documents.get(path)
    if doc is None or not doc.has_frontmatter or not is_computation(doc.meta):
        return None
    try:
        text = package.read_text(path)
    except (OSError, ValueError):
        return None
    body = "\n".join(text.splitlines()[doc.body_line - 1 :])
    return read_contract(path, doc.meta, body, doc.body_line)


def _computation_blocks(body: str, body_line: int) -> list[tuple[int, str]]:
    """``(file line, language)`` of the code blocks under a heading "Computation"."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse(body)
    blocks: list[tuple[int, str]] = []
    inside: int | None = None  # the level of the "Computation" heading we are under
    for n, token in enumerate(tokens):
        if token.type == "heading_open":
            level = int(token.tag[1:])
            title = tokens[n + 1].content.strip().casefold() if n + 1 < len(tokens) else ""
            if inside is not None and level <= inside:
                inside = None
            if title == "computation":
                inside = level
        elif inside is not None and token.type in ("fence", "code_block") and token.map:
            blocks.append((body_line + token.map[0], token.info.strip()))
    return blocks


def resource_exists(root: str, document: str, target: str) -> bool | None:
    """Whether the path ``target`` written in ``document`` names a file of the package
    (see :func:`resource_path`); ``None`` for a URL (not checked)."""
    if resolve(document, target).kind == "external":
        return None
    return resource_path(root, document, target) is not None


def resource_path(root: str, document: str, target: str) -> str | None:
    """The package path of the file ``target`` written in ``document`` names: read as a
    link is (relative to the document, ``/``-rooted), else from the root; ``None`` when
    it names no file of the package (or is a URL)."""
    found = resolve(document, target)
    if found.kind != "internal":
        return None
    candidates = (found.path, posixpath.normpath(target.lstrip("/")))
    for candidate in candidates:
        if candidate and os.path.isfile(os.path.join(root, *candidate.split("/"))):
            return candidate
    return None


def contract_findings(root: str, contract: Contract) -> list[tuple[str, str, str]]:
    """``(code, frontmatter key or "", message)`` of each rule the contract breaks."""
    found: list[tuple[str, str, str]] = []
    if contract.runtime is None:
        found.append(("OKF160", "type", "an Attested Computation needs a 'runtime' (OKF §10.2)"))
    if contract.computation is not None:
        if not resource_exists(root, contract.path, contract.computation):
            found.append(
                ("OKF161", "computation", f"computation {contract.computation!r}: no such file")
            )
        if contract.blocks:
            found.append(
                (
                    "OKF162",
                    "computation",
                    "a 'computation' file and a code block under '# Computation': keep one",
                )
            )
    elif len(contract.blocks) != 1:
        said = "none" if not contract.blocks else f"{len(contract.blocks)} code blocks"
        found.append(
            (
                "OKF163",
                "type",
                f"no single computation: no 'computation' file, and {said} under '# Computation'",
            )
        )
    problem = contract.parameter_problem()
    if problem:
        found.append(("OKF164", "parameters", problem))
    for key, value in (("executor", contract.executor), ("attester", contract.attester)):
        if value is not None and resource_exists(root, contract.path, value) is False:
            found.append(("OKF165", key, f"{key} resource {value!r}: no such file"))
    return found
