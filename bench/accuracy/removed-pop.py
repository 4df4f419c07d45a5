#!/usr/bin/env python3
"""removed-pop.py RUN.json... [--any-confidence] [--all-loops] [--seed N --count K]
                 [--exclude TSV... [--judged-tree 6.12-TREE]]

Population for issue 15's removed sample: sites with a proven costly order
(order hi > 3, confidence proven) that are not a costly-no-fallback warning
because issue 15 recognised a fallback or demoted a cannot-stall physical
attempt.  Prints counts by reason; --seed N --count K draws a sample (TSV).
--exclude leaves out the sites already judged in those TSVs (any
bench/accuracy/*.tsv shape): a row excludes a site of the same file,
function and api, lines ignored; the row's api is its api column, else the
calls on its line in --judged-tree (6.12: any of them matches);
a row of the 6.1 tree (history.tsv, a "(6.1)" tag) or whose api cannot be
read excludes its file + function whatever the api."""
import argparse, collections, json, random, re, sys, os

ap = argparse.ArgumentParser()
ap.add_argument("runs", nargs="+")
ap.add_argument("--tree", default="build/linux-6.12")
ap.add_argument("--seed", type=int)
ap.add_argument("--count", type=int, default=20)
ap.add_argument("--any-confidence", action="store_true", help="any costly order (hi > 3), not only proven")
ap.add_argument("--all-loops", action="store_true", help="count classic order loops too")
ap.add_argument("--exclude", nargs="+", default=[], help="judged TSVs whose sites are left out")
ap.add_argument("--judged-tree", default="build/linux-6.12", help="the tree the judged TSVs' 6.12 lines are in")
a = ap.parse_args()

CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
def calls_at(tree, f, l):
    try:
        t = open(os.path.join(tree, f), errors="replace").read().split("\n")[int(l) - 1]
    except Exception:
        return None
    return {m.group(1) for m in CALL.finditer(t)} or None

def judged(paths):
    """(file, function) -> set of apis, or None for any api"""
    ex = {}
    def add(f, fn, apis):
        for f1 in f.split(">"):           # history.tsv: "6.1 name>6.12 name"
            for fn1 in fn.split(">"):
                k = (f1.strip(), fn1.strip())
                if apis is None or ex.get(k, 0) is None:
                    ex[k] = None
                else:
                    ex.setdefault(k, set()).update(apis)
    for p in paths:
        head = None
        for line in open(p, errors="replace"):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if head is None:
                head = cols
                continue
            r = dict(zip(head, cols))
            if "function" not in r:
                continue                  # facts.tsv: rows of history.tsv's sites
            if "file:line" in r:
                fl = r["file:line"]
                old = re.search(r"\(6\.1\)", fl) is not None
                fl = fl.split(" ", 1)[0]
                f, _, l = fl.rpartition(":")
                if not l.isdigit():
                    f, l = fl, None
            else:
                f, l = r.get("file", ""), r.get("line")
                old = "api_6_1" in r      # history.tsv: 6.1 and 6.12 rows
            if old:
                add(f, r["function"], None)
            elif r.get("api"):
                add(f, r["function"], {r["api"]})
            else:
                add(f, r["function"], calls_at(a.judged_tree, f, l) if l else None)
    return ex
EXCL = judged(a.exclude)

NEW_LOOP = re.compile(r"get_order|min\(|min_t\(|BIT\(|__fls|fls\(|next_order|&=\s*~")
def src(fl):
    f, l = fl.rsplit(":", 1)
    try:
        return open(os.path.join(a.tree, f), errors="replace").read().split("\n")[int(l) - 1].strip()
    except Exception:
        return ""

sites, finds = [], {}
for r in a.runs:
    d = json.load(open(r))
    sites += d["sites"]
    for f in d["findings"]:
        finds.setdefault((f["file"], f["line"], f.get("api")), []).append(f)

pop, why, excluded = [], collections.Counter(), []
for s in sites:
    o = s.get("order") or {}
    if (o.get("hi") or 0) <= 3 or o.get("lo") is None:
        continue
    kinds = {x.get("kind") for x in (s.get("size_source") or [])}
    # sites with a fallback carry no confidence: proven = a constant order/size read in the function
    if not a.any_confidence and (s.get("confidence") not in ("proven", None) or (s.get("confidence") is None and kinds != {"const"})):
        continue
    fs = finds.get((s["file"], s["line"], s.get("api")), [])
    if any(f["rule"] == "costly-no-fallback" and f["severity"] != "note" for f in fs):
        continue
    fb = s.get("fallback") or "none"
    reason = None
    if fb.startswith("caller-"):
        reason = fb
    elif fb in ("lower-order", "vmalloc", "other-path"):
        reason = fb
    elif fb == "order-loop":
        t = src(s["fallback_at"]) if s.get("fallback_at") else ""
        if NEW_LOOP.search(t):
            reason = "order-loop (mask/chunk)"
        elif a.all_loops:
            reason = "order-loop (classic)"
        else:
            why["skipped: classic order-loop"] += 1
    elif fb == "none" and s.get("stall") == "no" and s.get("contiguity") == "physical" \
            and any(f["rule"] == "costly-no-fallback" and f["severity"] == "note" for f in fs):
        reason = "note: no stall + physical"
    else:
        why["skipped: fallback=%s stall=%s" % (fb, s.get("stall"))] += 1
    ek = (s["file"], s.get("function") or "")
    if reason and ek in EXCL and (EXCL[ek] is None or s.get("api") in EXCL[ek]):
        excluded.append((reason, s))
        reason = None
    if reason:
        why[reason] += 1
        now = ",".join("%s %s" % (f["rule"], f["severity"]) for f in fs) or "no finding"
        pop.append((reason, s, now))

for k, v in sorted(why.items()):
    print("# %-40s %d" % (k, v), file=sys.stderr)
for reason, s in sorted(excluded, key=lambda e: (e[1]["file"], e[1]["line"])):
    print("# excluded (judged before): %s:%d %s %s (%s)" % (s["file"], s["line"], s.get("function"), s.get("api"), reason), file=sys.stderr)
print("# population %d (%d judged before, excluded)" % (len(pop), len(excluded)), file=sys.stderr)
pop.sort(key=lambda p: (p[1]["file"], p[1]["line"]))
if a.seed is not None:
    rng = random.Random(a.seed)
    pick = rng.sample(pop, min(a.count, len(pop)))
    print("# removed by issue 15: seed %d, %d of %d proven costly sites (%s)" % (a.seed, len(pick), len(pop), ", ".join(a.runs)))
    print("rule\tfile:line\tfunction\tverdict\tmax_order\tcontrolled_by\treason\ttool_confidence\ttool_source\tnow\tremoval\tfallback_at")
    for reason, s, now in pick:
        ss = (s.get("size_source") or [{}])[0]
        print("\t".join(["costly-no-fallback", "%s:%d" % (s["file"], s["line"]), s.get("function") or "?", "TODO", "", "", "",
                         s.get("confidence") or "", (ss.get("kind") or "") + (": " + ss["what"] if ss.get("what") else ""),
                         now, reason, s.get("fallback_at") or (s.get("contiguity_at") or "")]))
