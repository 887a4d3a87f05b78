#!/usr/bin/env python3
"""Writes the claim expressions of report 004's move tables (experiments/report-004.yaml:
cond1-two-heap-table, cond2-two-heap-table and the four *-move-table claims) from the
report's text (../shared/seeds/004_*.txt) and tests/fixtures/report004/*.tsv, to standard
output, one `name: expression` block per claim. The two-heap tables run a cell over several
text lines; each printed row (N2) is read as tokens, and each cell as heap B's takes (or E)
then heap A's (or E). Run from the repository root: python3 scripts/report004_table_claims.py
"""
import glob, os, re, sys

src = glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "shared", "seeds", "004_*.txt"))
if not src:
    sys.exit("report 004's text not found under ../shared/seeds/")
lines = [l.rstrip("\n") for l in open(src[0], encoding="utf-8")]


def two_heap_table(start):
    toks = []
    for l in lines[start + 1:]:
        if re.search(r"^結論|^表中列|^由觀察|^輸數組|^\(|^1\.以", l):
            break
        toks += l.split()
    rows, cur = {}, None
    for t in toks:
        if t.isdigit():  # a row label; a repeated number is a page number
            if cur is None or int(t) == cur + 1:
                cur = int(t)
                rows[cur] = []
            continue
        rows[cur].append(t)
    table = {}
    for n2, ts in rows.items():
        cells, j = [], 0
        while j < len(ts):
            assert re.fullmatch(r"E|[AB]\d+", ts[j]), (n2, ts[j])
            moves = []
            for heap in "BA":
                if j < len(ts) and ts[j] == "E":
                    j += 1
                else:
                    while j < len(ts) and ts[j].startswith(heap):
                        moves.append(ts[j])
                        j += 1
            cells.append(moves)
        assert len(cells) == 14, (n2, len(cells))
        table[n2] = cells
    return table


def two_heap_claim(table):
    def cell(c):
        if not c:
            return "len(winning_moves) == 0"
        mv = sorted((1 if x[0] == "A" else 2, int(x[1:])) for x in c)
        return (f"winning_moves.heap == [{', '.join(str(h) for h, _ in mv)}] and "
                f"winning_moves.take == [{', '.join(str(t) for _, t in mv)}]")
    rows = []
    for n2 in sorted(table):
        inner = " : ".join(f"N1 == {n1} ? ({cell(c)})" for n1, c in enumerate(table[n2])) + " : false"
        rows.append(f"N2 == {n2} ? ({inner}) :")
    return "\n      ".join(rows) + " false"


def one_heap_claim(path):
    rows = [l.rstrip("\n").split("\t") for l in open(path) if not l.startswith("#")]
    cols = [h.replace(" no_repeat", "") for h in rows[0][1:]]
    chains = []
    for c, col in enumerate(cols):
        items = []
        for r in rows[1:]:
            cell = r[c + 1].rstrip(",")  # a trailing comma is layout (see the claim's reading)
            lst = "[]" if cell == "E" else "[" + ", ".join(cell.split(",")) + "]"
            items.append(f"N == {r[0]} ? {lst}")
        chains.append(f'take == "{col}" ? ({" : ".join(items)} : null)')
    return "winning_moves.take == (" + " :\n      ".join(chains) + " : null)"


headers = [i for i, l in enumerate(lines) if re.search(r"N2\s+N\s*1 0 1 2", l)]
for name, start in zip(["cond1-two-heap-table", "cond2-two-heap-table"], headers):
    print(f"{name}:\n      {two_heap_claim(two_heap_table(start))}\n")
fixtures = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "report004")
for t in ["cond1", "cond2", "cond13", "cond23"]:
    print(f"{t}-move-table:\n      {one_heap_claim(os.path.join(fixtures, t + '.tsv'))}\n")
