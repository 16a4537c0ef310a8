"""``kas-tui install``, ``uninstall`` and ``installed``: packages in agents' skill folders
(:mod:`kas_tui.features.install`). Exit 0: done; 1: refused (errors under ``check
--agent-ready``, a different package of the same name); 2: usage or I/O error."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from kas_tui.cli.args import Parser, open_package
from kas_tui.features.install import CLIENTS, InstallError, install, installed_in, skills_folder
from kas_tui.text.wording import counted, visible


def _scope(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--for", dest="client", choices=CLIENTS, required=True, help="the agent (client)"
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--user", action="store_true", help="the home folder's skills folder")
    where.add_argument(
        "--project", type=Path, metavar="DIR", help="the skills folder of project DIR"
    )


def install_arguments(parser: Parser) -> None:
    parser.description = (
        "Copy (or link) a package into an agent's skills folder: claude "
        "(.claude/skills), agents and codex (.agents/skills), gemini (.gemini/skills), in "
        "the home folder (--user) or a project (--project DIR)."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    _scope(parser)
    parser.add_argument("--link", action="store_true", help="a symlink to the package, not a copy")
    parser.add_argument(
        "--force", action="store_true", help="install even with errors under check --agent-ready"
    )
    parser.add_argument(
        "--replace", action="store_true", help="overwrite a different package of the same name"
    )


def uninstall_arguments(parser: Parser) -> None:
    parser.description = "Remove an installed package."
    parser.add_argument("name", metavar="NAME", help="the skill's name")
    _scope(parser)
    parser.add_argument(
        "--force", action="store_true", help="remove it even if kas-tui did not install it"
    )


def installed_arguments(parser: Parser) -> None:
    parser.description = (
        "List the packages in every client's skills folder (home folder, and "
        "the project DIR: the current folder by default), and whether each copy is behind "
        "its source."
    )
    parser.add_argument("--project", type=Path, default=Path.cwd(), metavar="DIR")


def run_install(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.check import check

    location = open_package(args.path, "kas-tui install")
    package = Package.open(location.root, scan=True, cache=True)
    report = check(package, agent_ready=True, today=dt.date.today())
    # the copy is named by SKILL.md's name whatever the source folder is called: a
    # folder named otherwise (KAS006) is no reason to refuse
    errors = sum(1 for f in report.findings if f.severity == "error" and f.code != "KAS006")
    if errors:
        said = f"{package.root}: {counted(errors, 'error')} under check --agent-ready"
        if not args.force:
            print(
                f"kas-tui install: {said}; run kas-tui check --agent-ready {package.root} to "
                "see them, or --force to install anyway",
                file=sys.stderr,
            )
            return 1
        print(f"kas-tui install: warning: {said}; installing anyway (--force)", file=sys.stderr)
    folder = skills_folder(args.client, project=args.project)
    try:
        placed = install(package, folder, link=args.link, replace=args.replace)
    except InstallError as exc:
        print(f"kas-tui install: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"kas-tui install: cannot write {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    target, entry = placed.target, placed.entry
    for item in placed.skipped:
        print(
            f"kas-tui install: skipped {visible(item.path)}: {item.what}: never {item.never}, "
            f"not copied; {item.fix}",
            file=sys.stderr,
        )
    how = "linked" if args.link else "copied"
    print(f"{entry.name} {how} to {target} for {args.client}")
    if package.root.name != entry.name:
        print(
            f"  (named {entry.name} after SKILL.md's name; the source folder is {package.root.name})"
        )
    print(f"The agent's catalog will show (~{entry.tokens:,} tokens):")
    print(f"  name: {entry.name}")
    print(f"  description: {entry.description}")
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    from kas_tui.features.install import uninstall

    folder = skills_folder(args.client, project=args.project)
    try:
        target = uninstall(folder, args.name, force=args.force)
    except InstallError as exc:
        print(f"kas-tui uninstall: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"kas-tui uninstall: cannot remove it: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"removed {target}")
    return 0


def run_installed(args: argparse.Namespace) -> int:
    seen: set[Path] = set()
    rows = 0
    for scope, base in (("user", None), ("project", args.project)):
        for client in CLIENTS:
            folder = skills_folder(client, project=base)
            if folder in seen:
                continue
            seen.add(folder)
            for item in installed_in(folder):
                rows += 1
                kind = "link" if item.linked else "copy"
                if item.source is None:
                    state = "not installed by kas-tui"
                elif item.behind is None:
                    state = f"from {item.source} (source gone)"
                else:
                    state = f"from {item.source}" + (", behind its source" if item.behind else "")
                print(f"{item.name}  {kind}  {item.path}  ({scope}) {state}")
    if not rows:
        print("no packages installed in any client's skills folder", file=sys.stderr)
    return 0
