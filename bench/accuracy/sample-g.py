#!/usr/bin/env python3
"""Sample g: a fresh random sample of the warnings (severity warning or error)
of a whole-tree audit, drawn with random.Random(SEED).sample over all of them
sorted by rule + file:line, whether or not an earlier sample judged the same
row (the judges of this sample do not read the earlier verdicts: an
independent check of the rates).  Prints one TSV row per drawn finding, in
draw order, with the tool's facts the judge needs.

    python3 bench/accuracy/sample-g.py build/runs14/whole-b.json 40 20261215
"""
import json, random, sys

path, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = json.load(open(path))
warn = [f for f in d["findings"] if f.get("severity") in ("warning", "error")]
warn.sort(key=lambda f: (f["rule"], f["file"], f["line"]))
pick = random.Random(seed).sample(warn, min(n, len(warn)))
print("# sample g of %s: seed %d, %d of %d warnings" % (path, seed, len(pick), len(warn)))
print("\t".join(["rule", "file:line", "function", "api", "order", "confidence", "fallback", "contiguity", "message"]))
for f in pick:
    o = f.get("order") or {}
    print("\t".join([f["rule"], "%s:%d" % (f["file"], f["line"]), f.get("function") or "?", f.get("api") or "?",
                     "%s..%s" % (o.get("lo"), o.get("hi")), f.get("confidence") or "?", f.get("fallback") or "?",
                     f.get("contiguity") or "?", (f.get("message") or "").replace("\t", " ")]))
