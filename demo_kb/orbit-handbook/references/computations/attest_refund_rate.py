"""Attest a refund-rate receipt: the SQL that ran is the sanctioned file bound with the
receipt's parameters, and nothing else.

    python attest_refund_rate.py refund_rate.sql RECEIPT.json   # "accepted" or "rejected: why"

Deterministic and offline: binding is re-derived with psycopg's client-side quoting, the
way the runner's driver binds, and compared with the receipt's executed SQL.
"""

import json
import sys

from psycopg import sql as pgsql


def bound(text: str, parameters: dict) -> str:
    values = {name: pgsql.Literal(value) for name, value in parameters.items()}
    return pgsql.SQL(text.replace("%(", "{").replace(")s", "}")).format(**values).as_string(None)


def verdict(text: str, receipt: dict) -> str:
    parameters = dict(receipt.get("parameters") or {})
    if set(parameters) - {"month", "plan"}:
        return "rejected: the receipt binds parameters the contract does not declare"
    parameters.setdefault("plan", None)
    if " ".join(bound(text, parameters).split()) != " ".join(
        receipt.get("executed_sql", "").split()
    ):
        return "rejected: the executed SQL is not the sanctioned query with these parameters"
    return "accepted"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as text, open(sys.argv[2]) as receipt:
        print(verdict(text.read(), json.load(receipt)))
