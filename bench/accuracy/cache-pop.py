#!/usr/bin/env python3
"""cache-pop.py CACHE.sqlite... OUT.json: the sites and findings an audit's
result cache holds (a file's pass-1 result, replaced by its latest re-judged
result of the facts passes where there is one), joined into one JSON that
removed-pop.py and sample.py read like a run's output.  For a shard run that
has not finished: close to its output, not the same (files whose re-judging
has not run yet keep their pass-1 result)."""
import sqlite3, json, sys
out_path = sys.argv[-1]
dbs = sys.argv[1:-1]
out = {"sites": [], "findings": []}
for db in dbs:
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    best = {}
    for path, res, stored in c.execute("select path, result, stored from results"):
        best[path] = (0, stored, res)
    for path, res, stored in c.execute("select path, result, stored from judged"):
        if path not in best or best[path][0] == 0 or stored > best[path][1]:
            best[path] = (1, stored, res)
    for path, (j, st, res) in best.items():
        d = json.loads(res)
        out["sites"] += d.get("sites", [])
        out["findings"] += d.get("findings", [])
json.dump(out, open(out_path, "w"))
print(len(out["sites"]), len(out["findings"]))
