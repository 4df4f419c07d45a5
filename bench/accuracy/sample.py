#!/usr/bin/env python3
"""Draw a seeded random sample of findings from a whole-tree audit JSON, per
rule in proportion to its share (ACCURACY.md), and write a TSV to judge.

    sample.py RUN.json --seed N --count 60 [--severity warning] [--confidence proven,likely]
              [--baseline OLD.json --removed]  > judged-NAME.tsv

--removed draws from the findings of OLD.json (at the severity) that RUN.json
no longer reports at that severity (the change's removals)."""
import argparse, collections, json, random, sys

SEV = {"note": 0, "warning": 1, "error": 2}


def key(f):
    return (f["file"], f.get("function"), f.get("api"), f["rule"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--severity", default="warning")
    ap.add_argument("--confidence", default="")
    ap.add_argument("--baseline")
    ap.add_argument("--removed", action="store_true")
    ap.add_argument("--rules", default="costly-no-fallback,costly-no-noretry,costly-noretry-compacts,nofail-high-order")
    a = ap.parse_args()
    rules = set(a.rules.split(","))
    d = json.load(open(a.run))
    pool = [f for f in d["findings"] if f["rule"] in rules and SEV[f["severity"]] >= SEV[a.severity]]
    if a.confidence:
        pool = [f for f in pool if f.get("confidence") in a.confidence.split(",")]
    if a.removed:
        now = {key(f) for f in pool}
        old = json.load(open(a.baseline))
        pool = [f for f in old["findings"] if f["rule"] in rules and SEV[f["severity"]] >= SEV[a.severity]
                and key(f) not in now]
        cur = {key(f): f for f in d["findings"]}
    pool.sort(key=lambda f: (f["rule"], f["file"], f["line"]))
    rng = random.Random(a.seed)
    by = collections.defaultdict(list)
    for f in pool:
        by[f["rule"]].append(f)
    n = min(a.count, len(pool))
    quota = {r: round(n * len(v) / len(pool)) for r, v in by.items()}
    for r, v in by.items():  # at least one of each rule present
        quota[r] = max(1 if v else 0, min(quota[r], len(v)))
    while sum(quota.values()) > n:
        r = max(quota, key=lambda r: quota[r])
        quota[r] -= 1
    while sum(quota.values()) < n:
        r = max((r for r in by if quota[r] < len(by[r])), key=lambda r: len(by[r]) - quota[r])
        quota[r] += 1
    pick = []
    for r in sorted(by):
        pick += rng.sample(by[r], quota[r])
    print("# sample of %s: seed %d, %d of %d findings (%s), severity >= %s%s%s" % (
        a.run, a.seed, len(pick), len(pool), ", ".join("%s %d" % (r, quota[r]) for r in sorted(by)),
        a.severity, ", confidence " + a.confidence if a.confidence else "",
        ", removed since " + a.baseline if a.removed else ""))
    print("rule\tfile:line\tfunction\tverdict\tmax_order\tcontrolled_by\treason\ttool_confidence\ttool_source\tnow")
    for f in pick:
        ss = (f.get("size_source") or [{}])[0]
        now = ""
        if a.removed:
            c = cur.get(key(f))
            now = "%s %s" % (c["severity"], c.get("confidence")) if c else "no finding"
        print("\t".join([f["rule"], "%s:%d" % (f["file"], f["line"]), f.get("function") or "?", "TODO",
                         "", "", "", f.get("confidence") or "", (ss.get("kind") or "") + (": " + ss["what"] if ss.get("what") else ""), now]))


if __name__ == "__main__":
    sys.exit(main())
