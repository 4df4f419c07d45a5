#!/usr/bin/env python3
"""Sample f: up to 30 warnings (severity warning or error) of the s13b whole-tree
run (build/runs13/whole2.json) whose file:line is in no judged-*.tsv or
removed-*.tsv here, drawn with random.Random(20261204).sample over the rest
sorted by file:line.  Prints the population, the excluded rows, the eligible
rows that share file + function with a judged row (kept: the brief's test is
file:line), and the sample in draw order (judge from the top; stop early
rather than skip).

    python3 bench/accuracy/sample-f.py /work/main/build/runs13/whole2.json
    python3 bench/accuracy/sample-f.py --population /work/main/build/runs13/whole2.json

--population instead joins every warning to the verdicts of all judged files
(this sample's too) on rule + file:line (a TODO verdict loses to a real one)
and prints the counts per rule and verdict, and the rows with none.

judged-issue14-f.tsv, this sample's own output, is not read, so the draw
does not change once it is written."""
import collections, csv, glob, json, os, random, sys

pop = "--population" in sys.argv[1:]
args = [a for a in sys.argv[1:] if a != "--population"]
here = os.path.dirname(os.path.abspath(__file__))
seen_fl, seen_ff = set(), set()
verdicts = collections.defaultdict(list)
for p in sorted(glob.glob(os.path.join(here, "judged-*.tsv")) + glob.glob(os.path.join(here, "removed-*.tsv"))):
    own = p.endswith("judged-issue14-f.tsv")
    if own and not pop:
        continue
    with open(p, newline="") as f:
        for r in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(r) < 3 or r[0].startswith("#") or r[0] == "rule":
                continue
            fl = r[1].split()[0] if r[1].strip() else ""
            if not fl:
                continue
            if len(r) > 3:
                verdicts[(r[0], fl)].append((os.path.basename(p), r[3].strip()))
            if own:
                continue
            seen_fl.add(fl)
            seen_ff.add((fl.rsplit(":", 1)[0], r[2].strip()))

F = json.load(open(args[0]))["findings"]
W = [f for f in F if f["severity"] in ("warning", "error")]
key = lambda f: "%s:%d" % (f["file"], f["line"])
if pop:
    c, none = collections.Counter(), []
    for f in W:
        v = [x for x in verdicts.get((f["rule"], key(f)), []) if x[1] != "TODO"]
        if not v:
            none.append(f)
            continue
        if len(set(x[1] for x in v)) > 1:
            print("  differing verdicts, last file taken: %s %s %s" % (f["rule"], key(f), v))
        c[(f["rule"], v[-1][1])] += 1
    for rule in sorted(set(r for r, _ in c)):
        n = sum(k for (r, _), k in c.items() if r == rule)
        t = sum(k for (r, v), k in c.items() if r == rule and v.startswith("TP"))
        a = c[(rule, "TP-A")]
        print("%-26s judged %3d  true %3d  actionable %3d  %s" % (rule, n, t, a, ", ".join(
            "%s %d" % (v, k) for (r, v), k in sorted(c.items()) if r == rule)))
    n = sum(c.values()); t = sum(k for (r, v), k in c.items() if v.startswith("TP"))
    print("%-26s judged %3d  true %3d  actionable %3d" % ("all", n, t, sum(k for (r, v), k in c.items() if v == "TP-A")))
    print("no verdict for the same rule: %d" % len(none))
    for f in none:
        print("  %s %s %s" % (f["rule"], key(f), f["function"]))
    sys.exit(0)
print("findings %d; warnings or errors %d: %s" % (len(F), len(W), dict(collections.Counter(
    "%s/%s/%s" % (f["rule"], f["severity"], f.get("confidence")) for f in W))))
excl = [f for f in W if key(f) in seen_fl]
rest = sorted((f for f in W if key(f) not in seen_fl), key=lambda f: (f["file"], f["line"]))
print("excluded by file:line %d, eligible %d" % (len(excl), len(rest)))
for f in sorted(excl, key=key):
    print("  excluded: %s %s %s" % (f["rule"], key(f), f["function"]))
for f in rest:
    if (f["file"], f["function"]) in seen_ff:
        print("  eligible, file+function judged before: %s %s %s" % (f["rule"], key(f), f["function"]))
S = random.Random(20261204).sample(rest, min(30, len(rest)))
print("sample %d (draw order)" % len(S))
for i, f in enumerate(S, 1):
    print("  %2d\t%s\t%s\t%s\t%s\t%s\t%s" % (i, f["rule"], key(f), f["function"], f["api"], f["confidence"],
                                        f["size_source"][0]["kind"] if f.get("size_source") else "?"))
