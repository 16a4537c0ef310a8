"""Every ``kas-tui`` verb in one table: its name, its group, what it does in one line,
the function that adds its arguments and the function that runs it.

The functions are named ``"module:function"`` and imported only when their verb runs,
so ``kas-tui check`` loads neither Textual, MarkItDown nor the other verbs' code.
``kas-tui --help`` lists the table by group; ``kas-tui VERB --help`` is the verb's own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

#: The groups, in the order ``kas-tui --help`` lists them.
GROUPS = ("browse", "check and fix", "build and import", "measure", "serve and install")


@dataclass(frozen=True)
class Verb:
    name: str
    group: str
    summary: str
    #: ``"module:function"``: adds the verb's arguments (and description) to its parser.
    arguments: str
    #: ``"module:function"``: runs the verb on the parsed arguments; returns the exit code.
    run: str

    def load(self, which: str) -> Callable[..., Any]:
        module, function = getattr(self, which).split(":")
        return getattr(import_module(f"kas_tui.cli.{module}"), function)


VERBS: tuple[Verb, ...] = (
    Verb("demo", "browse", "open the bundled demo package (a writable copy)",
         "main:demo_arguments", "main:run_demo"),
    Verb("info", "browse", "the package on one screen: types, trust, staleness, token costs",
         "info:info_arguments", "info:run_info"),
    Verb("search", "browse", "search the words of every document, bodies too",
         "search:search_arguments", "search:run_search"),
    Verb("graph", "browse", "write the link graph as JSON, Graphviz DOT or Mermaid",
         "graph:graph_arguments", "graph:run_graph"),
    Verb("check", "check and fix", "validate a package (OKF v0.2, --agent-ready); --fix the safe ones",
         "check:check_arguments", "check:run_check"),
    Verb("rules", "check and fix", "print the rule catalog (every code check can report)",
         "check:rules_arguments", "check:run_rules"),
    Verb("computations", "check and fix", "list the Attested Computation contracts (OKF §10)",
         "computations:computations_arguments", "computations:run_computations"),
    Verb("profile", "check and fix", "house rules: draft .kas-tui.yaml from what the package does",
         "profile:profile_arguments", "profile:run_profile"),
    Verb("review", "check and fix", "list what needs a human: stale, unverified, broken, changed",
         "review:review_arguments", "review:run_review"),
    Verb("diff", "check and fix", "what a change does to a package, for a reviewer (A B, --since)",
         "diff:diff_arguments", "diff:run_diff"),
    Verb("new", "check and fix", "create a draft document, a bundle or a SKILL.md",
         "new:new_arguments", "new:run_new"),
    Verb("mv", "check and fix", "rename or move a document, asset or bundle, references kept",
         "moves:mv_arguments", "moves:run_mv"),
    Verb("split", "check and fix", "move chosen documents of a bundle into a new sub-bundle",
         "moves:split_arguments", "moves:run_split"),
    Verb("merge", "check and fix", "move everything of one bundle into another",
         "moves:merge_arguments", "moves:run_merge"),
    Verb("import", "build and import", "convert files (PDF, Word, HTML...) into documents of a bundle",
         "importing:import_arguments", "importing:run_import"),
    Verb("build", "build and import", "build a whole package from a folder of documents or a docs site",
         "importing:build_arguments", "importing:run_build"),
    Verb("questions", "measure", "draft a question set for eval from the documents' bodies",
         "questions:questions_arguments", "questions:run_questions"),
    Verb("eval", "measure", "measure how well an agent finds the answers (reach, turns, tokens)",
         "eval:eval_arguments", "eval:run_eval"),
    Verb("serve", "serve and install", "serve the package to agents over MCP (stdio or HTTP)",
         "serve:serve_arguments", "serve:run_serve"),
    Verb("install", "serve and install", "copy or link the package into an agent's skills folder",
         "install:install_arguments", "install:run_install"),
    Verb("uninstall", "serve and install", "remove an installed package",
         "install:uninstall_arguments", "install:run_uninstall"),
    Verb("installed", "serve and install", "list installed packages and whether each is behind",
         "install:installed_arguments", "install:run_installed"),
)  # fmt: skip

BY_NAME = {verb.name: verb for verb in VERBS}


def verbs_help() -> str:
    """The verbs by group, each with its line, for ``kas-tui --help``."""
    width = max(len(verb.name) for verb in VERBS)
    lines = []
    for group in GROUPS:
        lines += [""] if lines else []
        lines.append(f"{group}:")
        lines += [f"  {v.name:<{width}}  {v.summary}" for v in VERBS if v.group == group]
    return "\n".join(lines)
