#!/usr/bin/env python3
"""Builds assets/NotoSansCJKtc-subset.otf: Noto Sans CJK TC Regular (SIL Open
Font License 1.1) cut down to the characters nimlab's figures can show — every
character of the experiment specs, the docs and README, any text files named
on the command line (the five reports, say), ASCII, Latin-1, general and CJK
punctuation — so that Chinese titles and labels render in PNG figures.

usage: scripts/make-cjk-font.py [TEXT_FILE ...]
needs: the Debian packages fonts-noto-cjk and python3-fonttools
       (apt-get install fonts-noto-cjk python3-fonttools; run with /usr/bin/python3)
"""
import glob
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FAMILY = "Noto Sans CJK TC"
OUT = "assets/NotoSansCJKtc-subset.otf"


def repo_text(root):
    files = glob.glob(os.path.join(root, "experiments", "**", "*.yaml"), recursive=True)
    files += glob.glob(os.path.join(root, "docs", "*.md")) + [os.path.join(root, "README.md")]
    return files


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    chars = set(chr(c) for c in range(0x20, 0x7F))
    chars |= set(chr(c) for c in range(0xA0, 0x100))
    chars |= set(chr(c) for c in range(0x2000, 0x2070))  # general punctuation
    chars |= set(chr(c) for c in range(0x3000, 0x3040))  # CJK symbols and punctuation
    chars |= set(chr(c) for c in range(0xFF01, 0xFF5F))  # full-width forms
    for f in repo_text(root) + sys.argv[1:]:
        with open(f, encoding="utf-8", errors="replace") as fh:
            chars |= {c for c in fh.read() if ord(c) >= 0x2E80}
    chars.discard("\ufffd")
    coll = TTCollection(SOURCE)
    font = next(
        f for f in coll.fonts if f["name"].getDebugName(1) == FAMILY
    )
    opts = subset.Options()
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.layout_features = []
    opts.hinting = False
    opts.notdef_outline = True  # a missing character shows as a box, not as nothing
    opts.desubroutinize = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in chars])
    sub.subset(font)
    cmap = font.getBestCmap()
    have = sum(1 for c in chars if ord(c) in cmap)
    font.save(os.path.join(root, OUT))
    print(f"{OUT}: {have} of {len(chars)} characters, {os.path.getsize(os.path.join(root, OUT))} bytes")


if __name__ == "__main__":
    main()
