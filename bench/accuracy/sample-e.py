#!/usr/bin/env python3
"""Sample e: 40 warnings of the 1a577a6 whole-tree run (build/runs11/whole.json)
not judged before, drawn with random.Random(20261203).sample over the rest
sorted by file:line.  Prints the excluded rows, the sample and the
nofail-high-order errors.

    python3 bench/accuracy/sample-e.py /work/main/build/runs11/whole.json"""
import csv, glob, json, os, random, sys

here = os.path.dirname(os.path.abspath(__file__))
seen_fl, seen_ff = set(), set()
for p in sorted(glob.glob(os.path.join(here, "judged-*.tsv")) + glob.glob(os.path.join(here, "removed-*.tsv"))):
    if p.endswith("judged-issue14-e.tsv"):
        continue
    with open(p, newline="") as f:
        for r in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(r) < 3 or r[0].startswith("#") or r[0] == "rule":
                continue
            fl = r[1].split()[0] if r[1].strip() else ""
            if not fl:
                continue
            seen_fl.add(fl)
            seen_ff.add((fl.rsplit(":", 1)[0], r[2].strip()))

F = json.load(open(sys.argv[1]))["findings"]
W = [f for f in F if f["severity"] == "warning"]
key = lambda f: "%s:%d" % (f["file"], f["line"])
rest, excl = [], []
for f in W:
    why = "file:line" if key(f) in seen_fl else "file+function" if (f["file"], f["function"]) in seen_ff else None
    (excl if why else rest).append((f, why))
print("warnings %d, excluded %d (file:line %d, file+function %d), remaining %d" % (
    len(W), len(excl), sum(1 for _, w in excl if w == "file:line"),
    sum(1 for _, w in excl if w == "file+function"), len(rest)))
for f, w in sorted(excl, key=lambda x: key(x[0])):
    print("  excluded (%s): %s %s %s" % (w, f["rule"], key(f), f["function"]))
rest = sorted((f for f, _ in rest), key=lambda f: (f["file"], f["line"]))
S = random.Random(20261203).sample(rest, min(40, len(rest)))
S.sort(key=lambda f: (f["file"], f["line"]))
print("sample %d" % len(S))
for f in S:
    print("  %s\t%s\t%s\t%s\t%s" % (f["rule"], key(f), f["function"], f["confidence"],
                                   f["size_source"][0]["kind"] if f.get("size_source") else "?"))
print("nofail-high-order errors")
for f in F:
    if f["rule"] == "nofail-high-order":
        print("  %s\t%s\t%s\t%s" % (f["rule"], key(f), f["function"], f["confidence"]))
