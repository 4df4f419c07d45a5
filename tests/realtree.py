#!/usr/bin/env python3
"""Audit a fixed list of real kernel files and compare with expectations.

usage: realtree.py GFPAUDIT KDIR EXPECT_FILE
Prints one line per expectation, the measured rate, and "N passed, N failed".
"""
import json, os, subprocess, sys, time

def flags(s):
    return {"__GFP_" + f for f in s.split("|") if f}

def main():
    gfpaudit, kdir, expect = sys.argv[1:4]
    files, checks = [], []
    for lineno, raw in enumerate(open(expect), 1):
        line, _, reason = raw.partition("#")
        words = line.split()
        if not words:
            continue
        if words[0] == "files":
            files = words[1:]
            continue
        if not reason.strip() and words[0] != "only-findings":
            sys.exit(f"{expect}:{lineno}: every expectation needs a '# reason'")
        checks.append((lineno, words, reason.strip()))
    t0 = time.time()
    p = subprocess.run([gfpaudit, "audit", "-q", "--no-cache", "--format", "json", "--sites", "--tree", kdir] +
                       [f"{kdir}/{f}" for f in files], capture_output=True, text=True)
    dt = time.time() - t0
    if p.returncode not in (0, 1):
        print(p.stderr)
        print("0 passed, 1 failed")
        return 1
    d = json.loads(p.stdout)
    sites, findings = d["sites"], d["findings"]
    passed = failed = 0
    listed = {}
    for lineno, w, reason in checks:
        kind = w[0]
        ok, why = True, ""
        if kind == "site":
            f, fn, api = w[1:4]
            cons = dict(x.split("=", 1) for x in w[4:])
            cands = [s for s in sites if s["file"] == f and s["function"] == fn and s["api"] == api]
            def fits(s):
                o = s["order"]
                if "order" in cons:
                    want = cons["order"]
                    got = "?" if o["lo"] is None else f"{o['lo']}..{o['hi']}"
                    if want != got:
                        return f"order {got}"
                if "fallback" in cons and s["fallback"] != cons["fallback"]:
                    return f"fallback {s['fallback']}"
                if "conf" in cons and (s.get("confidence") or "none") != cons["conf"]:
                    return f"confidence {s.get('confidence') or 'none'}"
                if "src" in cons and ((s.get("size_source") or [{}])[0].get("kind")) != cons["src"]:
                    return f"size source {(s.get('size_source') or [{}])[0].get('kind')}"
                must = set(s["gfp"]["must"])
                may = must | set(s["gfp"]["may"])
                if "must" in cons and not flags(cons["must"]) <= must:
                    return f"must {sorted(must)}"
                if "mustnot" in cons and flags(cons["mustnot"]) & may:
                    return f"may {sorted(flags(cons['mustnot']) & may)}"
                fb = [a for a in s.get("attempts", []) if a["role"] == "fallback"]
                fbm = set.intersection(*[set(a["gfp"]["must"]) for a in fb]) if fb else set(s["gfp"]["must"])
                if "fbmust" in cons and not flags(cons["fbmust"]) <= fbm:
                    return f"fallback-attempts must {sorted(fbm)}"
                return ""
            if not cands:
                ok, why = False, "no such site"
            else:
                whys = [fits(s) for s in cands]
                if all(whys):
                    ok, why = False, "; ".join(whys)
        elif kind == "nosite":
            f, fn, api = w[1:4]
            ok = not [s for s in sites if s["file"] == f and s["function"] == fn and s["api"] == api]
            why = "site present"
        elif kind in ("finding", "nofinding"):
            f, fn, api, rule = w[1:5]
            hit = [x for x in findings if x["file"] == f and x["function"] == fn and x["api"] == api and x["rule"] == rule]
            listed.setdefault(f, set()).add((fn, api, rule))
            ok = bool(hit) if kind == "finding" else not hit
            why = "missing" if kind == "finding" else "present"
        elif kind == "only-findings":
            f = w[1]
            extra = [(x["function"], x["api"], x["rule"]) for x in findings if x["file"] == f
                     and (x["function"], x["api"], x["rule"]) not in listed.get(f, set())]
            ok = not extra
            why = f"unexpected {extra}"
        else:
            sys.exit(f"{expect}:{lineno}: unknown expectation '{kind}'")
        print(("ok   " if ok else "FAIL ") + " ".join(w) + ("" if ok else f"  -- {why}"))
        passed += ok
        failed += not ok
    fc = d["files"]
    print(f"realtree: {fc['analyzed']} files in {dt:.1f} s ({fc['analyzed'] / dt:.2f} files/s), "
          f"{len(sites)} sites, {len(findings)} findings, {fc['failed']} failed files")
    def same_as(args, env=None):
        """Run the audit again with args: its sites and findings, and the time."""
        t1 = time.time()
        q = subprocess.run([gfpaudit, "audit", "-q", "--no-cache", "--format", "json", "--sites"] + args +
                           ["--tree", kdir] + [f"{kdir}/{f}" for f in files], capture_output=True, text=True,
                           env=dict(os.environ, **(env or {})))
        try:
            e = json.loads(q.stdout) if q.returncode in (0, 1) else None
        except ValueError:
            e = None
            print(q.stderr[-2000:])
        same = bool(e) and json.dumps(e["sites"] + e["findings"], sort_keys=True) == \
            json.dumps(sites + findings, sort_keys=True)
        return same, time.time() - t1
    # the PCH (the default) must not change a single site or finding: the
    # plain parse (--no-pch) must give exactly the same
    same, dt_pch = same_as(["--no-pch"])
    print(("ok   " if same else "FAIL ") + f"--no-pch gives identical sites and findings ({dt:.1f} s with the PCH, {dt_pch:.1f} s without)")
    passed += same
    failed += not same
    # a worker keeps the heap freed by one file for the next (isolate.c);
    # handing it all back before each file (GFPAUDIT_MALLOC=trim, one
    # worker for all the files) must change nothing either
    same, dt_trim = same_as(["-j1"], {"GFPAUDIT_MALLOC": "trim"})
    print(("ok   " if same else "FAIL ") + f"GFPAUDIT_MALLOC=trim -j1 gives identical sites and findings ({dt_trim:.1f} s)")
    passed += same
    failed += not same
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0

sys.exit(main())
