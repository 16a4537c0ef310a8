"""Run the refund-rate query read-only and print its receipt as JSON.

    python run_on_postgres.py refund_rate.sql '{"month": "2026-10-01", "plan": null}'

Needs psycopg 3 and PG* environment variables. Parameters are bound by the driver, never
formatted into the text; the receipt carries the SQL the server executed.
"""

import json
import sys

import psycopg


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        sql = file.read()
    parameters = json.loads(sys.argv[2])
    parameters.setdefault("plan", None)
    with psycopg.connect(cursor_factory=psycopg.ClientCursor) as connection:
        connection.read_only = True
        with connection.cursor() as cursor:
            executed = cursor.mogrify(sql, parameters)  # bound by the driver, as sent
            cursor.execute(sql, parameters)
            rows = cursor.fetchall()
    receipt = {
        "executed_sql": executed,
        "parameters": parameters,
        "row_count": len(rows),
        "result": [list(map(str, row)) for row in rows],
    }
    print(json.dumps(receipt))


if __name__ == "__main__":
    main()
