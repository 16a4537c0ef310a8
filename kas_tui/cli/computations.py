"""``kas-tui computations PKG``: every Attested Computation contract of a package (OKF
§10), with its runtime, parameters, resources, trust and freshness, text or JSON.
Exit 0; 2: usage or a folder that is not a package."""

from __future__ import annotations

import argparse
import datetime as dt
import json

from kas_tui.cli.args import Parser, iso_date, open_package


def computations_arguments(parser: Parser) -> None:
    parser.description = (
        "List every Attested Computation (OKF §10) of a package: runtime, parameters, "
        "where the computation is, the executor and attester, trust and freshness "
        "(check reports what is wrong with a contract: OKF160-OKF165)."
    )
    parser.add_argument("path", metavar="PKG", help="package folder")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--today", type=iso_date, help="the day freshness is judged on")


def run_computations(args: argparse.Namespace) -> int:
    from kas_tui.core.package import Package
    from kas_tui.features.check.computations import contract_of

    location = open_package(args.path, "kas-tui computations")
    package = Package.open(location.root)
    today = args.today or dt.date.today()
    rows = []
    for path in sorted(package.documents):
        doc = package.documents[path]
        contract = contract_of(package, path)
        if contract is None:
            continue
        params = contract.parameters if isinstance(contract.parameters, list) else []
        rows.append(
            {
                "path": path,
                "title": doc.title,
                "runtime": contract.runtime,
                "parameters": [
                    {k: p.get(k) for k in ("name", "type", "required")}
                    for p in params
                    if isinstance(p, dict)
                ],
                "computation": contract.computation
                or (f"{path}:{contract.blocks[0][0]}" if contract.blocks else None),
                "executor": contract.executor,
                "receipt": contract.receipt,
                "attester": contract.attester,
                "trust": str(doc.trust_tier),
                "staleness": doc.staleness(today).state,
            }
        )
    if args.format == "json":
        print(json.dumps({"package": package.name, "computations": rows}, indent=2))
        return 0
    if not rows:
        print(f"{package.name}: no Attested Computation concepts")
    for row in rows:
        params = ", ".join(
            f"{p['name']}: {p['type']}{'' if p.get('required') else '?'}" for p in row["parameters"]
        )
        print(f"{row['path']}  {row['title']}")
        print(f"  runtime {row['runtime'] or '(none)'} · parameters ({params or 'none'})")
        print(f"  computation {row['computation'] or '(none)'}")
        print(f"  executor {row['executor'] or '-'} · attester {row['attester'] or '-'}")
        print(f"  {row['trust']} · {row['staleness']}")
    return 0
