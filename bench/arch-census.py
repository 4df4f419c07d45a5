#!/usr/bin/env python3
"""Per-architecture census of whole-tree audits (issue 13).

usage: bench/arch-census.py NAME=RUN.json[:CANDIDATES.txt] ...

RUN.json is `gfpaudit audit --format json --tree K K`; CANDIDATES.txt
(optional) is `gfpaudit audit --candidates --tree K K` of the same tree, the
files the audit parsed.  Prints, per run: files analyzed / failed / partial,
findings per rule and severity, and per confidence.  With two or more runs
that have candidate lists, the findings of files parsed in every run are
compared by (file, function, rule, api): present in one run and not another,
or present in both with another order or severity.
"""
import collections
import json
import sys


def load(arg):
    name, _, rest = arg.partition("=")
    run, _, cand = rest.partition(":")
    d = json.load(open(run))
    files = None
    if cand:
        files = set()
        for line in open(cand):
            line = line.strip()
            if line:
                files.add(line)
    return name, d, files


def key(f):
    return (f["file"], f.get("function", ""), f["rule"], f.get("api", ""))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    runs = [load(a) for a in argv[1:]]
    for name, d, _ in runs:
        fs = d["files"]
        print(f"== {name}: analyzed {fs.get('analyzed', 0)}, cached {fs.get('cached', 0)}, "
              f"failed {fs.get('failed', 0)}, skipped {fs.get('skipped', 0)}, partial {fs.get('partial', 0)}, "
              f"problems {len(d.get('problems', []))}")
        by = collections.Counter((f["rule"], f["severity"]) for f in d["findings"])
        conf = collections.Counter(f.get("confidence", "-") for f in d["findings"]
                                   if f["rule"].startswith("costly") or f["rule"] == "nofail-high-order")
        for (r, s), n in sorted(by.items()):
            print(f"   {r:26} {s:8} {n}")
        print(f"   total {len(d['findings'])}; warnings and errors "
              f"{sum(1 for f in d['findings'] if f['severity'] != 'note')}; "
              f"order rules by confidence: {dict(sorted(conf.items()))}")
        causes = collections.Counter()
        for p in d.get("problems", []):
            causes[(p.get("kind", "?"), (p.get("reason") or p.get("message") or "?")[:90])] += 1
        for (k, r), n in causes.most_common(8):
            print(f"   problem {k}: {n} x {r}")
    with_cand = [r for r in runs if r[2] is not None]
    if len(with_cand) < 2:
        return 0
    # candidate paths are build/linux-.../FILE; findings are tree-relative
    sets = [{c.split("/", 2)[2] if c.startswith("build/") else c for c in files}
            for _, _, files in with_cand]
    common = set.intersection(*sets)
    print(f"== files parsed in every run: {len(common)}")
    a_name, a, _ = with_cand[0]
    for b_name, b, _ in with_cand[1:]:
        fa = {key(f): f for f in a["findings"] if f["file"] in common}
        fb = {key(f): f for f in b["findings"] if f["file"] in common}
        only_a = sorted(set(fa) - set(fb))
        only_b = sorted(set(fb) - set(fa))
        changed = []
        for k in sorted(set(fa) & set(fb)):
            x, y = fa[k], fb[k]
            ox, oy = x.get("order", {}), y.get("order", {})
            if ox != oy or x["severity"] != y["severity"]:
                changed.append(k)
        print(f"== {a_name} vs {b_name} on common files: only {a_name} {len(only_a)}, "
              f"only {b_name} {len(only_b)}, other order or severity {len(changed)}")

        def show(f):
            o = f.get("order", {})
            return (f"{f['file']}:{f['line']} {f.get('function')}() {f.get('api')} [{f['rule']}] "
                    f"{f['severity']} order {o.get('lo')}..{o.get('hi')} {f.get('confidence', '')}")
        for tag, ks, src in ((f"only {a_name}", only_a, fa), (f"only {b_name}", only_b, fb)):
            for k in ks:
                print(f"   {tag}: {show(src[k])}")
        for k in changed:
            print(f"   changed: {show(fa[k])}  ->  {show(fb[k])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
