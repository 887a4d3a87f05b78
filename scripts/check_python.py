#!/usr/bin/env python3
"""Reads nimlab's Parquet output with Python polars, as a user would, and checks
known values: the schema is honest if a reader that knows no Rust gets the same
numbers.

Usage: python3 scripts/check_python.py OUT_DIR
where OUT_DIR holds the results of `nimlab run tests/fixtures/valid/small.yaml --out OUT_DIR`.
"""
import sys

import polars as pl

out = sys.argv[1]
pos = pl.read_parquet(f"{out}/small/one-heap/positions/*.parquet")
expected_cols = ["rule", "take", "take_min", "take_max", "take_set", "play", "no_repeat", "heaps",
                 "N", "outcome", "grundy", "winning_moves"]
assert pos.columns == expected_cols, pos.columns
assert pos.schema["N"] == pl.Int64 and pos.schema["no_repeat"] == pl.Boolean, pos.schema
assert pos.height == 3 * 2 * 2 * 21, pos.height

# Take 1..2, normal play: P-positions are the multiples of 3 (report 004, L = {k(n+1)}).
r = pos.filter((pl.col("take") == "max:2") & (pl.col("play") == "normal") & ~pl.col("no_repeat"))
assert r["N"].to_list() == list(range(21))
assert r.filter(pl.col("outcome") == "P")["N"].to_list() == [0, 3, 6, 9, 12, 15, 18]
assert r["grundy"].to_list() == [n % 3 for n in range(21)]
assert r.filter(pl.col("N") == 7)["winning_moves"].item() == "1"

# S = {1,3,4}: Grundy values 0 1 0 1 2 3 2, period 7.
s = pos.filter((pl.col("take") == "set:1,3,4") & (pl.col("play") == "normal") & ~pl.col("no_repeat"))
assert s["grundy"].to_list()[:14] == [0, 1, 0, 1, 2, 3, 2] * 2
assert s["take_set"][0] == "1,3,4" and s["take_max"][0] == 4

# Misère rows have no Grundy value (null), never 0.
m = pos.filter(pl.col("play") == "misere")
assert m["grundy"].null_count() == m.height

per = pl.read_parquet(f"{out}/small/one-heap/periods/*.parquet")
row = per.filter((pl.col("take") == "set:1,3,4") & (pl.col("play") == "normal") & ~pl.col("no_repeat")
                 & (pl.col("sequence") == "grundy"))
assert row["period"].item() == 7 and row["preperiod"].item() == 0 and row["status"].item() == "proven"

two = pl.read_parquet(f"{out}/small/two-heaps/positions/*.parquet")
# Take 2..3 on two heaps, normal play: P iff G(N1) = G(N2) with G(n) = floor((n mod 5) / 2).
g = lambda n: (n % 5) // 2
for n1, n2, o in two.select(["N1", "N2", "outcome"]).iter_rows():
    assert (o == "P") == (g(n1) == g(n2)), (n1, n2, o)
print(f"python polars {pl.__version__}: {pos.height + two.height} rows read, all checks passed")
