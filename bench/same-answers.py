#!/usr/bin/env python3
"""Do two audit JSON reports (--format json --sites) give the same answers?

Compares every finding (file, line, column, rule, severity, confidence,
message, fallback) and every site (file, line, column, order, fallback,
confidence of its size), ignoring what differs between runs by design (the
file counts, the version).  Prints the differences, at most --max of each
kind, and a summary; exit 1 when they differ.  Used for the whole-tree
missed-findings check (a resumed run against one from the start)."""
import argparse
import json
import sys


def finding_key(f):
    return (f.get("file"), f.get("line"), f.get("column"), f.get("rule"), f.get("severity"),
            f.get("confidence"), f.get("message"), json.dumps(f.get("fallback"), sort_keys=True))


def site_key(s):
    return (s.get("file"), s.get("line"), s.get("column"), json.dumps(s.get("order"), sort_keys=True),
            json.dumps(s.get("fallback"), sort_keys=True), json.dumps(s.get("size_source"), sort_keys=True))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--max", type=int, default=10)
    o = ap.parse_args()
    a, b = json.load(open(o.a)), json.load(open(o.b))
    differ = False
    for what, key in (("findings", finding_key), ("sites", site_key)):
        x = sorted(map(key, a.get(what, [])), key=repr)
        y = sorted(map(key, b.get(what, [])), key=repr)
        only_a = sorted(set(x) - set(y), key=repr)
        only_b = sorted(set(y) - set(x), key=repr)
        print(f"{what}: {len(x)} and {len(y)}; only in the first {len(only_a)}, only in the second {len(only_b)}")
        for k in only_a[:o.max]:
            print("  - " + " | ".join(map(str, k)))
        for k in only_b[:o.max]:
            print("  + " + " | ".join(map(str, k)))
        differ = differ or bool(only_a or only_b) or len(x) != len(y)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
