#!/usr/bin/env python3
"""Reads nimlab's Parquet output with Python polars, as a user would, and checks
known values: the schema is honest if a reader that knows no Rust gets the same
numbers, lists as lists and vocabularies as categories.

Usage: python3 scripts/check_python.py OUT_DIR
where OUT_DIR holds the results of `nimlab run tests/fixtures/valid/small.yaml --out OUT_DIR`.
"""
import sys

import polars as pl

out = sys.argv[1]
# One glob reads the one-heap and the two-heap sweeps of the experiment.
allpos = pl.read_parquet(f"{out}/small/data/takeaway/positions/*/*.parquet")
assert set(allpos["sweep"].unique().to_list()) == {"one-heap", "two-heaps"}, allpos["sweep"].unique()
assert allpos["experiment"].unique().to_list() == ["small"]
pos = allpos.filter(pl.col("sweep") == "one-heap")
assert pos.schema["N"] == pl.Int64 and pos.schema["no_repeat"] == pl.Boolean, pos.schema
assert isinstance(pos.schema["winning_moves"], pl.List), pos.schema["winning_moves"]
assert isinstance(pos.schema["take_set"], pl.List), pos.schema["take_set"]
assert pos.height == 3 * 2 * 2 * 21, pos.height

# Take 1..2, normal play: P-positions are the multiples of 3 (report 004, L = {k(n+1)}).
r = pos.filter((pl.col("take") == "max:2") & (pl.col("play") == "normal") & ~pl.col("no_repeat"))
assert r["N"].to_list() == list(range(21))
assert r.filter(pl.col("outcome") == "P")["N"].to_list() == [0, 3, 6, 9, 12, 15, 18]
assert r["grundy"].to_list() == [n % 3 for n in range(21)]
assert r.filter(pl.col("N") == 7)["winning_moves"].item().to_list() == [{"heap": 1, "take": 1}]

# S = {1,3,4}: Grundy values 0 1 0 1 2 3 2, period 7.
s = pos.filter((pl.col("take") == "set:1,3,4") & (pl.col("play") == "normal") & ~pl.col("no_repeat"))
assert s["grundy"].to_list()[:14] == [0, 1, 0, 1, 2, 3, 2] * 2
assert s["take_set"][0].to_list() == [1, 3, 4] and s["take_max"][0] == 4

# Misère rows have no Grundy value (null), never 0.
m = pos.filter(pl.col("play") == "misere")
assert m["grundy"].null_count() == m.height

per = pl.read_parquet(f"{out}/small/data/takeaway/periods/*/*.parquet")
row = per.filter((pl.col("take") == "set:1,3,4") & (pl.col("play") == "normal") & ~pl.col("no_repeat")
                 & (pl.col("values") == "grundy"))
assert row["period"].item() == 7 and row["preperiod"].item() == 0 and row["status"].item() == "proven"
assert row["period_values"].item().to_list() == [0, 1, 0, 1, 2, 3, 2]

two = allpos.filter(pl.col("sweep") == "two-heaps")
# Take 2..3 on two heaps, normal play: P iff G(N1) = G(N2) with G(n) = floor((n mod 5) / 2).
g = lambda n: (n % 5) // 2
for n1, n2, o in two.select(["N1", "N2", "outcome"]).iter_rows():
    assert (o == "P") == (g(n1) == g(n2)), (n1, n2, o)
print(f"python polars {pl.__version__}: {pos.height + two.height} rows read, all checks passed")
