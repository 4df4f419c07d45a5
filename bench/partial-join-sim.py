#!/usr/bin/env python3
"""How many facts-pass re-judgements a first parse judged against the join
so far would have spared (bench/session16.md): a file re-judged in the facts
passes counts as spared when, for every key its first judgement read, every
other file publishing into that key finished its first parse (two files'
slack for the other worker) before it, or the key's observations already
held an unbounded one from such a file and no constant above the witness
floor.  Usage: partial-join-sim.py CACHE.sqlite RUN.err (a GFPAUDIT_PROFILE
run's stderr: its per-file lines give the order).
"""
import sqlite3, json, sys, collections
db = sqlite3.connect(sys.argv[1]); err = sys.argv[2]
FLOOR = 1 << 15
first = {}
for path, body in db.execute("select path, body from results_more"):
    d = json.loads(body); first[path] = d
order = []
seen = set()
for l in open(err):
    if l.startswith("profile: ") and " parse " in l:
        f = l.split()[1]
        if f not in seen: seen.add(f); order.append(f)
pos = {}
for i, f in enumerate(order): pos[f] = i
def key_of(p):
    # cache paths are absolute; profile names relative
    for f in pos:
        if p == f or p.endswith("/" + f): return f
    return None
pmap = {p: key_of(p) for p in first}
pub = collections.defaultdict(list)
for p, d in first.items():
    for o in d.get("facts", []):
        pub[o[0]].append((pmap[p], o[1] is None, o[1], o[2]))
def wild(k):
    if k.startswith("field:"): s = k.rfind(".")
    else: s = k.rfind("#")
    return k[:s+1] + "*" if s > 0 else None
judged = set(p for (p,) in db.execute("select distinct path from judged"))
nf = 0; ok = 0; okj = 0; nj = 0
why = collections.Counter()
for p, d in first.items():
    f = pmap[p]
    if f is None: continue
    nj += p in judged
    good = True
    for k in d.get("consulted", []):
        obs = pub.get(k, []) + (pub.get(wild(k), []) if wild(k) and wild(k) != k else [])
        others = [o for o in obs if o[0] != f]
        if not others: continue
        if all(pos.get(o[0], 1e9) < pos[f] - 2 for o in others): continue
        unb = any(o[1] for o in obs)
        big = any((not o[1]) and o[2] == o[3] and o[2] > FLOOR for o in obs)
        early_unb = any(o[1] and pos.get(o[0], 1e9) < pos[f] - 2 for o in others) or any(o[1] for o in obs if o[0] == f)
        if unb and not big and early_unb: continue
        good = False; why[k.split(':')[0]] += 1; break
    if p in judged:
        okj += good
print("files", len(first), "judged in passes", nj, "of those all-keys-early", okj)
print(why.most_common())
