"""Attest a burn-rate receipt: the code that ran is the sanctioned code, the result follows.

    python attest_burn_rate.py DOCUMENT.md RECEIPT.json   # prints "accepted" or "rejected: why"

Deterministic: it re-reads the document's ``# Computation`` block, compares its SHA-256
with the receipt's and recomputes the result from the receipt's parameters.
"""

import hashlib
import json
import sys

from run_python import computation_code


def verdict(document: str, receipt: dict) -> str:
    code = computation_code(document)
    if hashlib.sha256(code.encode("utf-8")).hexdigest() != receipt.get("code_sha256"):
        return "rejected: the code that ran is not the sanctioned computation"
    scope: dict = {}
    exec(compile(code, "computation", "exec"), scope)
    expected = scope["burn_rate"](**receipt["parameters"])
    if expected != receipt.get("result"):
        return f"rejected: the parameters give {expected}, the receipt says {receipt.get('result')}"
    return "accepted"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as document, open(sys.argv[2]) as receipt:
        print(verdict(document.read(), json.load(receipt)))
