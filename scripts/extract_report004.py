#!/usr/bin/env python3
"""Extracts report 004's printed one-heap tables from its text (../shared/seeds/004_*.txt)
into tests/fixtures/report004/*.tsv, so tests can compare them cell by cell.

Each output row is: N, then one cell per rule column, exactly as printed
("E", "1", "2,3", ...). A cell ending in "," was cut off in the text layout.
Run from the repository root: python3 scripts/extract_report004.py
"""
import glob, os, re, sys

src = glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "shared", "seeds", "004_*.txt"))
if not src:
    sys.exit("report 004's text not found under ../shared/seeds/")
lines = [l.strip() for l in open(src[0], encoding="utf-8")]

def table(header_pat, first_n, last_n, ncols, start=0):
    i = next(k for k in range(start, len(lines)) if re.match(header_pat, lines[k]))
    header = lines[i]
    rows, k = {}, i + 1
    while len(rows) < last_n - first_n + 1 and k < len(lines):
        parts = lines[k].split()
        if parts and parts[0].isdigit() and int(parts[0]) == first_n + len(rows) and len(parts) == ncols + 1:
            rows[int(parts[0])] = parts[1:]
        k += 1
    assert len(rows) == last_n - first_n + 1, (header_pat, len(rows))
    return header, rows, k

out = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "report004")
os.makedirs(out, exist_ok=True)

def write(name, cols, rows, note):
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write(f"# {note}\n")
        f.write("N\t" + "\t".join(cols) + "\n")
        for n in sorted(rows):
            f.write(f"{n}\t" + "\t".join(rows[n]) + "\n")

_, r, k = table(r"^n= 2 3 4 5 6 7 8 9 10 11 12$", 0, 45, 11)
write("cond1.tsv", [f"max:{n}" for n in range(2, 13)], r, "Report 004, Cond(1) one heap, take 1..n (columns), N = 0..45")
pairs2 = ["2,3", "2,4", "2,5", "3,4", "3,5", "4,5", "4,6", "5,6"]
_, r, k = table(r"^\(m ,n \)= 2,3 2,4 2,5 3,4 3,5 4,5 4,6 5,6$", 0, 50, 8, k)
write("cond2.tsv", [f"min:{p.split(',')[0]},max:{p.split(',')[1]}" for p in pairs2], r, "Report 004, Cond(2) one heap, take m..n, N = 0..50")
_, r, k = table(r"^n= 2 3 4 5 6 7 8 9 10 11 12 13 14 15$", 1, 50, 14, k)
write("cond13.tsv", [f"max:{n} no_repeat" for n in range(2, 16)], r, "Report 004, Cond(1,3) one heap, take 1..n, no repeat, N = 1..50 (a cell ending in ',' was cut off in the text)")
pairs23 = ["2,3", "2,4", "2,5", "2,6", "2,7", "3,4", "3,5", "3,6", "3,7", "4,5", "4,6", "5,6"]
_, r, k = table(r"^\(m ,n \)= 2,3 2,4 2,5 2,6 2,7 3,4 3,5 3,6 3,7 4,5 4,6 5,6$", 0, 50, 12, k)
write("cond23.tsv", [f"min:{p.split(',')[0]},max:{p.split(',')[1]} no_repeat" for p in pairs23], r, "Report 004, Cond(2,3) one heap, take m..n, no repeat, N = 0..50")
print("wrote", out)
