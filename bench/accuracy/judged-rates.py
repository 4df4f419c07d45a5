#!/usr/bin/env python3
"""Rates of judged samples (ACCURACY.md): true = (TP-A + TP-NA) / judged,
actionable = TP-A / judged, UNSURE left out; overall, per rule, per the
tool's confidence and per the kind of its first size_source.

    judged-rates.py judged-issue14-c.tsv [more.tsv ...]"""
import collections, csv, sys

V = ("TP-A", "TP-NA", "FP-bound", "FP-fallback", "FP-mask", "FP-other", "UNSURE")


def rows(path):
    with open(path, newline="") as f:
        for r in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if not r or r[0].startswith("#") or r[0] == "rule":
                continue
            r += [""] * (10 - len(r))
            kind = r[8].split(":", 1)[0].strip() or "?"
            if "field:" in r[8] or "param:" in r[8] and "module parameter" not in r[8]:
                kind += " (fact base)"
            yield {"rule": r[0], "verdict": r[3], "conf": r[7] or "?", "kind": kind}


def line(name, c):
    n = sum(v for k, v in c.items() if k != "UNSURE")
    t, a = c["TP-A"] + c["TP-NA"], c["TP-A"]
    pct = lambda x: "%d/%d (%d%%)" % (x, n, round(100.0 * x / n)) if n else "-"
    print("  %-34s judged %3d  true %-13s actionable %-13s %s" % (
        name, n, pct(t), pct(a), ", ".join("%s %d" % (k, c[k]) for k in V if c[k])))


def main():
    R = [r for p in sys.argv[1:] for r in rows(p)]
    line("all", collections.Counter(r["verdict"] for r in R))
    for key, title in (("rule", "by rule"), ("conf", "by tool confidence"), ("kind", "by size_source kind")):
        print(title)
        for k in sorted({r[key] for r in R}):
            line(k, collections.Counter(r["verdict"] for r in R if r[key] == k))


if __name__ == "__main__":
    main()
