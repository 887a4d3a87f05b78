#!/usr/bin/env python3
"""Runs the reading examples of docs/data.md on a default run's output: every
```python and ```sql block of its "Layout" section, with `output/` replaced by
OUT_DIR/, and checks the DuckDB query's answer against Bouton's rule for one
heap: with take 1..n, taking 3 wins from N exactly when N % (n + 1) == 3.

Usage: python3 scripts/check_docs_examples.py OUT_DIR
"""
import re
import sys

import duckdb

out = sys.argv[1].rstrip("/")
doc = open("docs/data.md", encoding="utf-8").read()
layout = doc.split("## Layout", 1)[1].split("\n## ", 1)[0]
blocks = re.findall(r"```(python|sql)\n(.*?)```", layout, re.S)
assert blocks, "no examples found in docs/data.md"
ran = 0
for lang, code in blocks:
    code = "\n".join(line[2:] if line.startswith("  ") else line for line in code.splitlines())
    code = code.replace("'output/", f"'{out}/").replace('"output/', f'"{out}/')
    if lang == "python":
        exec(compile(code, "docs/data.md", "exec"), {})
        ran += 1
        continue
    con = duckdb.connect()
    for stmt in [s for s in code.split(";") if s.strip()]:
        rows = con.execute(stmt).fetchall()
        ran += 1
        if "list_contains" not in stmt:
            continue
        assert rows, "the winning-take query returned nothing"
        assert all(n is not None for _, n in rows), "a row without a heap size N"
        by_rule = {}
        for rule, n in rows:
            by_rule.setdefault(rule, []).append(n)
        top = con.execute(
            f"SELECT max(N) FROM '{out}/report-004/data/takeaway/positions/*/*.parquet' "
            "WHERE sweep = 'cond1-one-heap' AND rule = 'max:10' AND heaps = 1"
        ).fetchone()[0]
        assert by_rule["max:10"] == [n for n in range(top + 1) if n % 11 == 3], by_rule["max:10"]
print(f"docs/data.md: {ran} reading examples ran on {out}")
