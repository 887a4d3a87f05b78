#!/usr/bin/env python3
"""Statistics of an every-hexagon sweep (`lines`, take maximal, normal play):
the distribution of Grundy values, the largest value and its smallest boards,
the P-positions among the hexagons that are not point-symmetric (a,b,c,a,b,c),
and the largest Grundy value as a function of the largest side.

    python3 scripts/hexagon_stats.py OUT/lines-hexagons-128/hexagons-128
"""
import sys

import polars as pl


def main(sweep_dir: str) -> None:
    df = pl.read_parquet(f"{sweep_dir}/positions/*.parquet").select(
        ["hexagon_sides", "pieces", "grundy"]
    )
    s = df["hexagon_sides"].str.split(",").list.eval(pl.element().cast(pl.Int64))
    df = df.with_columns(
        s.list.max().alias("largest_side"),
        (
            (s.list.get(0) == s.list.get(3))
            & (s.list.get(1) == s.list.get(4))
            & (s.list.get(2) == s.list.get(5))
        ).alias("symmetric"),
    )
    n = df.height
    print(f"{n:,} hexagons (one per symmetry class), largest side ≤ {df['largest_side'].max()}\n")

    print("| Grundy value | hexagons | share |")
    print("|---|---|---|")
    dist = df.group_by("grundy").len().sort("grundy")
    for g, c in dist.iter_rows():
        print(f"| {g} | {c:,} | {100 * c / n:.3f} % |")
    print()

    gmax = df["grundy"].max()
    top = df.filter(pl.col("grundy") == gmax).sort(["pieces", "hexagon_sides"])
    print(f"largest Grundy value: {gmax}, on {top.height} hexagon(s); smallest:")
    for sides, pieces, *_ in top.head(5).iter_rows():
        print(f"  [{sides}] ({pieces} pieces)")
    print()

    asym = df.filter(~pl.col("symmetric"))
    p = asym.filter(pl.col("grundy") == 0)
    sym_p = df.filter(pl.col("symmetric") & (pl.col("grundy") == 0)).height
    print(
        f"P-positions: {df.filter(pl.col('grundy') == 0).height:,} of {n:,}; "
        f"among the {asym.height:,} hexagons that are not point-symmetric: {p.height:,} "
        f"({100 * p.height / asym.height:.2f} %); among the {n - asym.height:,} point-symmetric ones: {sym_p}"
    )
    print("smallest non-symmetric P-positions:")
    for sides, pieces, *_ in p.sort(["pieces", "hexagon_sides"]).head(8).iter_rows():
        print(f"  [{sides}] ({pieces} pieces)")
    print()

    print("| largest side ≤ L | hexagons | max Grundy | P-positions | a board with the max (fewest pieces) |")
    print("|---|---|---|---|---|")
    per = (
        df.sort(["grundy", "pieces"], descending=[True, False])
        .group_by("largest_side", maintain_order=True)
        .agg(
            pl.len().alias("n"),
            pl.col("grundy").first().alias("gmax"),
            pl.col("hexagon_sides").first().alias("board"),
            pl.col("pieces").first().alias("pieces"),
            (pl.col("grundy") == 0).sum().alias("p"),
        )
        .sort("largest_side")
    )
    best = (-1, "", 0)
    total = 0
    total_p = 0
    for side, cnt, g, board, pieces, pp in per.iter_rows():
        total += cnt
        total_p += pp
        if g > best[0]:
            best = (g, board, pieces)
        print(f"| {side} | {total:,} | {best[0]} | {total_p:,} | [{best[1]}] ({best[2]} pieces) |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: hexagon_stats.py SWEEP_DIR (…/lines-hexagons-128/hexagons-128)")
    main(sys.argv[1])
