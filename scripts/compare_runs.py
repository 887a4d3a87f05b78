"""Compares every Parquet dataset of two nimlab output directories: the same
datasets, the same Arrow schema (column names and types) and the same rows (as
a multiset: the order of files and rows is free). Used before and after a
refactor ("never change a value by accident"); scripts/compare-runs runs it.
Columns of the Timing role (how long a solve took: `seconds`) differ from run
to run and are left out of the row comparison (their type is still compared)."""
import glob
import os
import sys

import polars as pl
import pyarrow.parquet as pq

TIMING = {"seconds"}


def datasets(root):
    """Dataset directory (relative to root) -> its Parquet files; skips _chunks and _report."""
    out = {}
    for f in glob.glob(os.path.join(root, "**", "*.parquet"), recursive=True):
        rel = os.path.relpath(f, root)
        if any(part.startswith("_") for part in rel.split(os.sep)):
            continue
        out.setdefault(os.path.dirname(rel), []).append(f)
    return out


def load(files):
    files = sorted(files)
    schema = {f.name: str(f.type) for f in pq.read_schema(files[0])}
    df = pl.concat([pl.read_parquet(f) for f in files], how="vertical_relaxed")
    df = df.select(sorted(c for c in df.columns if c not in TIMING))
    return schema, df.height, df.hash_rows(seed=1).sort()


def shared_rows(files, columns):
    """The rows' hashes on `columns` only (for two schemas that differ)."""
    df = pl.concat([pl.read_parquet(f, columns=columns) for f in sorted(files)],
                   how="vertical_relaxed")
    return df.select(columns).hash_rows(seed=1).sort()


def main(base, new):
    a, b = datasets(base), datasets(new)
    differ = 0
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            print(f"only in {'the first' if name in a else 'the second'}: {name}")
            differ += 1
            continue
        sa, na, ha = load(a[name])
        sb, nb, hb = load(b[name])
        if sa != sb:
            shared = sorted(c for c in set(sa) & set(sb) if sa[c] == sb[c] and c not in TIMING)
            same = na == nb and shared_rows(a[name], shared).equals(shared_rows(b[name], shared))
            rows = "the same" if same else "different"
            print(f"schema differs: {name}: {sorted(set(sa.items()) ^ set(sb.items()))}; "
                  f"rows on the {len(shared)} shared columns: {rows}")
            differ += 1
        elif na != nb or not ha.equals(hb):
            print(f"rows differ: {name} ({na} and {nb} rows)")
            differ += 1
    print(f"{len(set(a) | set(b))} datasets compared, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: compare_runs.py FIRST_OUTPUT_DIR SECOND_OUTPUT_DIR")
    sys.exit(main(sys.argv[1], sys.argv[2]))
