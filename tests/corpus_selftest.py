#!/usr/bin/env python3
"""Self-test of tests/corpus.py: the runner must be able to fail.

Builds small cases in a temporary directory, each with canned answers that a
fake gfpaudit replays (FILE.json for the JSON run, FILE.out/FILE.rc for the
command), runs the runner on each, and checks its verdict: PASS, FAIL, XFAIL,
XPASS, or a rejected case.  Prints `N passed, N failed`.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

FAKE = r'''#!/usr/bin/env python3
import json, os, sys
if sys.argv[1:2] == ["rules"]:
    print(json.dumps({"rules": [{"id": "costly-no-fallback", "scope": "site"},
                                {"id": "costly-no-noretry", "scope": "site"}]}))
    sys.exit(0)
path = sys.argv[-1]
base = os.path.splitext(path)[0]
if "--format" in sys.argv:
    data = json.load(open(base + ".json"))
    for k in ("sites", "findings"):
        for x in data.get(k, []):
            x.setdefault("file", path)
    for x in data.get("problems", []):
        x["file"] = path
    data.setdefault("problems", [])
    print(json.dumps(data))
    sys.exit(1 if data.get("findings") else 0)
if os.path.exists(base + ".out"):
    sys.stdout.write(open(base + ".out").read())
sys.exit(int(open(base + ".rc").read()) if os.path.exists(base + ".rc") else 0)
'''

CODE = """#include <linux/gfp.h>
#include <linux/mm.h>

void f(struct page **p)
{
	p[0] = alloc_pages(GFP_KERNEL, 4); // warn: costly-no-fallback // site: order=4..4 fallback=none must=IO|DIRECT_RECLAIM mustnot=NORETRY
	p[1] = alloc_pages(GFP_KERNEL | __GFP_NORETRY, 1); // ok // site: order=1..1 fbmust=NORETRY may=NOWARN
}
/*
 * check-name: NAME
 *
 * check-output-start
 * x.c:6:9: warning: x [costly-no-fallback]
 * check-output-end
 */
"""

GOOD = {
    "sites": [
        {"line": 6, "api": "alloc_pages", "order": {"lo": 4, "hi": 4}, "fallback": "none",
         "gfp": {"must": ["__GFP_IO", "__GFP_FS", "__GFP_DIRECT_RECLAIM"], "may": []}},
        {"line": 7, "api": "alloc_pages", "order": {"lo": 1, "hi": 1}, "fallback": "none",
         "gfp": {"must": ["__GFP_NORETRY"], "may": ["__GFP_NOWARN"]}},
    ],
    "findings": [{"line": 6, "rule": "costly-no-fallback"}],
}


def variant(name, verdict, code=None, data=None, out=None, rc=None):
    return dict(name=name, verdict=verdict, code=code, data=data, out=out, rc=rc)


def edit(fn):
    d = json.loads(json.dumps(GOOD))
    fn(d)
    return d


def tag(extra):
    return CODE.replace(" * check-name: NAME\n", " * check-name: NAME\n" + extra)


CASES = [
    variant("pass", "PASS"),
    variant("fail-output", "FAIL", out="x.c:6:9: warning: y [costly-no-fallback]\n"),
    variant("fail-exit", "FAIL", rc=0),
    variant("fail-order", "FAIL", data=edit(lambda d: d["sites"][0]["order"].update(lo=0))),
    variant("fail-unknown-order", "FAIL",
            data=edit(lambda d: d["sites"][1].update(order={"lo": None, "hi": None}))),
    variant("fail-must", "FAIL", data=edit(lambda d: d["sites"][0]["gfp"]["must"].remove("__GFP_IO"))),
    variant("fail-mustnot-may", "FAIL", data=edit(lambda d: d["sites"][0]["gfp"]["may"].append("__GFP_NORETRY"))),
    variant("fail-may", "FAIL", data=edit(lambda d: d["sites"][1]["gfp"].update(may=[]))),
    variant("fail-fbmust", "FAIL", data=edit(lambda d: d["sites"][1].update(
        attempts=[{"orders": {"lo": 1, "hi": 5}, "role": "fallback",
                   "gfp": {"must": [], "may": ["__GFP_NORETRY"]}}]))),
    variant("fail-fallback", "FAIL", data=edit(lambda d: d["sites"][0].update(fallback="order-loop"))),
    variant("fail-no-site", "FAIL", data=edit(lambda d: d["sites"].pop())),
    variant("fail-extra-finding", "FAIL",
            data=edit(lambda d: d["findings"].append({"line": 7, "rule": "noretry-without-nowarn"}))),
    variant("fail-missing-finding", "FAIL", data=edit(lambda d: d.update(findings=[]))),
    variant("fail-unmarked-site", "FAIL", data=edit(lambda d: d["sites"].append(dict(d["sites"][1], line=4)))),
    variant("fail-unmarked-finding", "FAIL",
            data=edit(lambda d: d["findings"].append({"line": 5, "rule": "costly-no-fallback"}))),
    variant("fail-skipped", "FAIL",
            data=edit(lambda d: d.update(problems=[{"status": "skipped", "reason": "x"}]))),
    variant("fail-clang", "FAIL", code=CODE.replace("void f(", "void f(void);\nint f(")),
    variant("fail-clang-known", "FAIL",
            code=tag(" * check-known-to-fail\n").replace("void f(", "void f(void);\nint f(")),
    variant("xfail", "XFAIL", code=tag(" * check-known-to-fail\n"), rc=0),
    variant("xpass", "XPASS", code=tag(" * check-known-to-fail\n")),
    variant("exit-value", "PASS", code=tag(" * check-exit-value: 0\n"), rc=0),
    variant("bad-tag", "BAD", code=tag(" * check-outptu-start\n")),
    variant("bad-key", "BAD", code=CODE.replace("order=1..1 fbmust", "ordr=1..1 fbmust")),
    variant("bad-marker", "BAD", code=CODE.replace("// ok // site", "// oj // site")),
    variant("bad-comment", "BAD", code=CODE.replace("void f(", "// helper\nvoid f(")),
    variant("bad-rule", "BAD", code=CODE.replace("warn: costly-no-fallback", "warn: costly-no-fallbak")),
    variant("bad-flag", "BAD", code=CODE.replace("mustnot=NORETRY", "mustnot=NORETYR")),
    variant("bad-order", "BAD", code=CODE.replace("order=4..4", "order=4")),
    variant("bad-ok-warn", "BAD", code=CODE.replace("// warn: costly-no-fallback //", "// warn: costly-no-fallback // ok //")),
    variant("bad-no-name", "BAD", code=CODE.replace(" * check-name: NAME\n", "")),
]


def main():
    npass = nfail = 0
    with tempfile.TemporaryDirectory(prefix="gfpaudit-corpus-selftest.") as tmp:
        fake = os.path.join(tmp, "fake-gfpaudit")
        with open(fake, "w") as f:
            f.write(FAKE)
        os.chmod(fake, 0o755)
        files = []
        for c in CASES:
            base = os.path.join(tmp, c["name"])
            files.append(base + ".c")
            with open(base + ".c", "w") as f:
                f.write((c["code"] or CODE).replace("NAME", c["name"]))
            with open(base + ".json", "w") as f:
                json.dump(c["data"] if c["data"] is not None else GOOD, f)
            with open(base + ".out", "w") as f:
                f.write(c["out"] if c["out"] is not None else "x.c:6:9: warning: x [costly-no-fallback]\n")
            with open(base + ".rc", "w") as f:
                f.write(str(c["rc"] if c["rc"] is not None else 1))
        # one run over every case (-v prints a verdict line for each)
        p = subprocess.run([sys.executable, os.path.join(HERE, "corpus.py"), "-v", "--gfpaudit", fake] + files,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        verdicts = {}
        for line in p.stdout.split("\n"):
            m = re.match(r"(PASS|FAIL|XFAIL|XPASS)\s+(\S+?)(?::| \()", line)
            if m:
                name = os.path.splitext(os.path.basename(m.group(2)))[0]
                verdicts[name] = "BAD" if "bad case" in line else m.group(1)
        for c in CASES:
            got = verdicts.get(c["name"], "?")
            if got == c["verdict"]:
                npass += 1
            else:
                nfail += 1
                print("selftest %s: runner said %s, expected %s" % (c["name"], got, c["verdict"]))
        want = {"PASS": 0, "FAIL": 0, "XFAIL": 0}
        for c in CASES:
            want["PASS" if c["verdict"] == "PASS" else "XFAIL" if c["verdict"] == "XFAIL" else "FAIL"] += 1
        summary = "%d passed, %d failed, %d skipped" % (want["PASS"], want["FAIL"], want["XFAIL"])
        last = p.stdout.rstrip().split("\n")[-1]
        if last != summary or p.returncode != 1:
            nfail += 1
            print("selftest summary: runner said '%s' (exit %d), expected '%s' (exit 1)" % (last, p.returncode, summary))
        else:
            npass += 1
        if nfail:
            print("runner output:\n  " + p.stdout.strip().replace("\n", "\n  "))
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
