"""Run an Attested Computation whose runtime is python and print its receipt as JSON.

    python run_python.py DOCUMENT.md '{"bad_events": 50, "total_events": 20000, ...}'

Binds only the declared parameters as keyword arguments of the one function defined in
the document's ``# Computation`` block; the receipt carries the parameters, the SHA-256
of the code that ran and the result.
"""

import hashlib
import json
import re
import sys


def computation_code(document: str) -> str:
    body = document.split("\n---", 2)[-1]
    found = re.search(r"^# Computation\s*\n+```python\n(.*?)^```", body, re.M | re.S)
    if not found:
        raise SystemExit("no python block under '# Computation'")
    return found.group(1)


def main() -> None:
    document, raw = sys.argv[1], sys.argv[2]
    with open(document, encoding="utf-8") as file:
        code = computation_code(file.read())
    parameters = json.loads(raw)
    scope: dict = {}
    exec(compile(code, document, "exec"), scope)  # the sanctioned code, unchanged
    function = next(v for k, v in scope.items() if callable(v) and not k.startswith("_"))
    result = function(**parameters)
    receipt = {
        "parameters": parameters,
        "code_sha256": hashlib.sha256(code.encode("utf-8")).hexdigest(),
        "result": result,
    }
    print(json.dumps(receipt))


if __name__ == "__main__":
    main()
