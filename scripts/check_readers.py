#!/usr/bin/env python3
"""Every dataset of an output directory, read with one glob each by polars,
pyarrow and DuckDB (those importable here): the same rows, lists read as
lists, every row traced to its experiment and sweep.

Usage: python3 scripts/check_readers.py OUT_DIR [READER ...]   (readers: polars pyarrow duckdb)
"""
import glob
import os
import sys

out = sys.argv[1]
wanted = sys.argv[2:] or ["polars", "pyarrow", "duckdb"]
readers = {}
if "polars" in wanted:
    import polars as pl
    readers["polars"] = pl.__version__
if "pyarrow" in wanted:
    import pyarrow as pa
    import pyarrow.dataset as pads
    readers["pyarrow"] = pa.__version__
if "duckdb" in wanted:
    import duckdb
    readers["duckdb"] = duckdb.__version__

datasets = sorted(glob.glob(f"{out}/*/data/*/*"))
assert datasets, f"no datasets under {out}"
rows_total = 0
for d in datasets:
    where = os.path.relpath(d, out)
    pattern = f"{d}/*/*.parquet"
    counts = {}
    if "pyarrow" in readers:
        t = pads.dataset(d, format="parquet").to_table()
        lists = [f.name for f in t.schema if pa.types.is_list(f.type) or pa.types.is_large_list(f.type)]
        for f in t.schema:
            if f.name in ("experiment", "sweep"):
                assert pa.types.is_dictionary(f.type), (where, f)
        for name in lists:
            first = next((v for v in t.column(name).to_pylist() if v is not None), None)
            assert first is None or isinstance(first, list), (where, name, first)
        assert t.column("experiment").null_count == 0 and t.column("sweep").null_count == 0, where
        counts["pyarrow"] = t.num_rows
    if "duckdb" in readers:
        con = duckdb.connect()
        counts["duckdb"] = con.execute(f"SELECT count(*) FROM read_parquet('{pattern}')").fetchone()[0]
        cols = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{pattern}')").fetchall()
        types = {c[0]: c[1] for c in cols}
        nulls = con.execute(
            f"SELECT count(*) FROM read_parquet('{pattern}') WHERE experiment IS NULL OR sweep IS NULL"
        ).fetchone()[0]
        assert nulls == 0, where
        if "pyarrow" in readers:
            for name in lists:
                assert types[name].endswith("[]"), (where, name, types[name])
    if "polars" in readers:
        df = pl.read_parquet(pattern)
        counts["polars"] = df.height
        if "pyarrow" in readers:
            for name in lists:
                assert isinstance(df.schema[name], pl.List), (where, name, df.schema[name])
    assert len(set(counts.values())) == 1, (where, counts)
    rows_total += next(iter(counts.values()))
print(f"{len(datasets)} datasets, {rows_total} rows, one glob each, read alike by "
      + ", ".join(f"{k} {v}" for k, v in readers.items()))
