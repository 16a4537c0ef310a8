"""A CLI command's reference page (as cobra and click generate them: the command as its
title, a short summary, the usage in a code block, options, "See also") is described by
its summary and its usage, not by "Document on ..., covering Synopsis, Options" nor by
its "See also" list's first entry (another command's).

The pages are shaped as k3d's ``docs/usage/commands/`` (k3d-io/k3d), where 16 of 30
entries read near-identical (KAS041) before.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from kas_tui.core.okf import frontmatter as fm
from kas_tui.features.check.near_duplicates import earliest_alike
from kas_tui.features.importing.build import build
from kas_tui.features.importing.doc_shape import command_sentence, usage_line
from kas_tui.text import prose
from tests.helpers.build_sources import drafted, write_sources

NOW = dt.datetime(2026, 12, 6, 9, 0, tzinfo=dt.UTC)
INHERITED = (
    "### Options inherited from parent commands\n\n```\n"
    "      --trace     Enable super verbose output (trace logging)\n"
    "      --verbose   Enable verbose output (debug logging)\n```\n\n"
)


PARENT = "* [tool](tool.md)\t - Run things"


def cobra(command: str, short: str, usage: str, long: str = "", see_also: str = "") -> str:
    synopsis = f"### Synopsis\n\n{long or short}\n\n" if long is not None else ""
    return (
        f"## {command}\n\n{short}\n\n{synopsis}```\n{usage}\n```\n\n"
        f"### Options\n\n```\n  -h, --help   help for {command.split()[-1]}\n```\n\n"
        f"{INHERITED}### SEE ALSO\n\n{see_also or PARENT}\n"
    )


PAGES = {
    "tool_cluster.md": cobra(
        "tool cluster",
        "Manage cluster(s)",
        "tool cluster [flags]",
        see_also="* [tool cluster delete](tool_cluster_delete.md)\t - Delete cluster(s).\n"
        "* [tool cluster list](tool_cluster_list.md)\t - List cluster(s)",
    ),
    "tool_cluster_delete.md": cobra(
        "tool cluster delete", "Delete cluster(s).", "tool cluster delete [NAME ...] [flags]"
    ),
    "tool_cluster_list.md": cobra(
        "tool cluster list", "List cluster(s)", "tool cluster list [NAME ...] [flags]"
    ),
    "tool_node_delete.md": cobra(
        "tool node delete", "Delete node(s).", "tool node delete (NAME | --all) [flags]"
    ),
    "tool_node_list.md": cobra("tool node list", "List node(s)", "tool node list [flags]"),
    "tool_cluster_create.md": cobra(
        "tool cluster create",
        "Create a new cluster",
        "tool cluster create NAME [flags]",
        long="Create a new k3s cluster with containerized nodes (k3s in docker).",
    ),
    "tool_config_init.md": cobra("tool config init", "", "$ tool config init [flags]", long=None),
}


def _descriptions(out: Path) -> dict[str, str]:
    return {
        p.name: fm.parse(p.read_text("utf-8")).data["description"]
        for p in out.rglob("*.md")
        if p.name not in ("index.md", "SKILL.md", "log.md")
    }


def test_each_command_page_is_its_summary_and_its_usage(tmp_path: Path) -> None:
    out = tmp_path / "kb"
    assert build(write_sources(tmp_path / "src", PAGES), out, now=NOW, workers=1).errors == 0
    said = _descriptions(out)
    assert said["tool-cluster.md"] == "Manage cluster(s): `tool cluster [flags]`."  # not "Delete"
    assert said["tool-cluster-delete.md"] == (
        "Delete cluster(s): `tool cluster delete [NAME ...] [flags]`."
    )
    assert said["tool-node-list.md"] == "List node(s): `tool node list [flags]`."
    # the longer sentence of the synopsis says more than the summary
    assert said["tool-cluster-create.md"] == (
        "Create a new k3s cluster with containerized nodes (k3s in docker): "
        "`tool cluster create NAME [flags]`."
    )
    assert said["tool-config-init.md"] == (
        "The tool config init command: `tool config init [flags]`."  # no summary, no prompt
    )
    assert earliest_alike(list(said.values()), list(said)) == {}  # no KAS041 among them


def test_a_page_is_a_commands_only_when_its_first_code_is_the_title_run() -> None:
    page = "## tool cluster list\n\nList them.\n\n```\ntool cluster list [flags]\n```\n"
    assert usage_line(page, "tool cluster list") == "tool cluster list [flags]"
    assert usage_line(page, "Tool  Cluster List") == "tool cluster list [flags]"
    # the first code block is something else: an example, or another command
    other = "## tool cluster list\n\nList them.\n\n```yaml\nkind: Cluster\n```\n"
    assert usage_line(other, "tool cluster list") == ""
    assert usage_line(page.replace("list [flags]", "lists"), "tool cluster list") == ""
    # one word names a page as well as a command ("Installation": `installation.sh`?)
    assert usage_line("# pip\n\n```\npip install x\n```\n", "pip") == ""
    # the summary as the page shows it (its code as words), and a long paragraph is prose
    # of its own: described as any page is
    code = "## tool run\n\nRuns `main.py` in a sandbox.\n\n```\ntool run FILE\n```\n"
    said = command_sentence(code, "tool run", list(prose.blocks(code)))
    assert said == "Runs main.py in a sandbox: `tool run FILE`"
    long = code.replace("in a sandbox", "in a sandbox " + "and more " * 30)
    assert command_sentence(long, "tool run", list(prose.blocks(long))) is None


def test_a_page_of_code_opens_with_its_code_not_its_fence() -> None:
    # k3d's "Command Tree": one bash block, described by its opening ("Command Tree,
    # bash, k3d, ..." before: the fence's language read as the page's text)
    page = "# Command Tree\n\n```bash\nk3d\n  --verbose  # GLOBAL: enable verbose logging\n```\n"
    said = drafted(page, "commands.md").description
    assert said.startswith("Document whose text opens with “Command Tree, k3d, ")
    assert "bash" not in said
    myst = "# Metrics\n\n```{eval-rst}\n.. jsonschema:: ../schemas/v1.yaml\n```\n"
    assert "eval-rst" not in drafted(myst, "metrics.md").description


def test_a_page_with_words_outside_its_code_opens_with_those() -> None:
    # React Native's Text Style Props: its example's code opened its opening ("Example,
    # import {useState} from 'react';, import {, FlatList,..."), its sections after it
    example = "```SnackPlayer name=Props\nimport {useState} from 'react';\nimport {\n  FlatList,\n"
    page = (
        "### Example\n\n<Tabs>\n<TabItem>\n\n" + example + "```\n\n</TabItem>\n</Tabs>\n\n"
        "# Reference\n\n## Props\n\n### `color`\n\n| Type |\n| - |\n| color |\n"
    )
    from pathlib import Path

    from kas_tui.features.importing.convert_model import Converted
    from kas_tui.features.importing.doc_shape import opening_sentence

    said = opening_sentence(Converted(Path("text-style-props.md"), page, "markdown", "", 0, 0.0))
    assert said.startswith("Document whose text opens with “Example, Reference, Props"), said
    assert "import" not in said and "useState" not in said, said
