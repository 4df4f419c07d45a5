#!/usr/bin/env python3
"""removed-pop.py RUN.json... [--any-confidence] [--all-loops] [--seed N --count K]

Population for issue 15's removed sample: sites with a proven costly order
(order hi > 3, confidence proven) that are not a costly-no-fallback warning
because issue 15 recognised a fallback or demoted a cannot-stall physical
attempt.  Prints counts by reason; --seed N --count K draws a sample (TSV)."""
import argparse, collections, json, random, re, sys, os

ap = argparse.ArgumentParser()
ap.add_argument("runs", nargs="+")
ap.add_argument("--tree", default="build/linux-6.12")
ap.add_argument("--seed", type=int)
ap.add_argument("--count", type=int, default=20)
ap.add_argument("--any-confidence", action="store_true", help="any costly order (hi > 3), not only proven")
ap.add_argument("--all-loops", action="store_true", help="count classic order loops too")
a = ap.parse_args()

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

pop, why = [], collections.Counter()
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
    elif fb in ("lower-order", "vmalloc"):
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
    if reason:
        why[reason] += 1
        now = ",".join("%s %s" % (f["rule"], f["severity"]) for f in fs) or "no finding"
        pop.append((reason, s, now))

for k, v in sorted(why.items()):
    print("# %-40s %d" % (k, v), file=sys.stderr)
print("# population %d" % len(pop), file=sys.stderr)
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
