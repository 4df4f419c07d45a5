#!/usr/bin/env python3
"""Check the fixes an audit offered, outside the tool: each diff applies with
`git apply --check` to a scratch copy of the tree's files, and an audit of
the patched file (a scratch tree: symlinks to the real one, real copies of
the patched files) no longer has the finding and has no new one.

    fixcheck.py --tree build/linux-6.1 --tool ./gfpaudit AUDIT.json [--work DIR]
                [--copy-dir REL]... [--with REL]... [--only N]...

AUDIT.json is `gfpaudit audit --fixes --format json` output (history.py
--fixes --save keeps one as audit-6.1.json).  The shared tree is never
written.  One line per fix, then the totals.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys


def shadow(tree, root, real_files, copy_dirs=()):
    """A tree at root: every entry a symlink into tree, except the
    directories on the way to real_files (real: their files copied, their
    other directories symlinked) and the files themselves (real copies)."""
    need = collections.defaultdict(set)  # dir (relative) -> names to make real
    for f in real_files:
        parts = f.split("/")
        for i in range(len(parts)):
            need["/".join(parts[:i])].add(parts[i])
    def build(rel):
        src = os.path.join(tree, rel) if rel else tree
        dst = os.path.join(root, rel) if rel else root
        os.makedirs(dst, exist_ok=True)
        for e in os.listdir(src):
            r = rel + "/" + e if rel else e
            if r in copy_dirs:
                shutil.copytree(os.path.join(src, e), os.path.join(dst, e), symlinks=False)
            elif e in need.get(rel, ()):
                if r in real_files:
                    shutil.copy2(os.path.join(src, e), os.path.join(dst, e))
                else:
                    build(r)
            elif os.path.isfile(os.path.join(src, e)) and not os.path.islink(os.path.join(src, e)):
                # a header next to a patched file, read by a quoted #include: a
                # symlink would resolve outside the scratch tree, which the tool refuses
                shutil.copy2(os.path.join(src, e), os.path.join(dst, e))
            else:
                os.symlink(os.path.join(src, e), os.path.join(dst, e))
    build("")


def key(f):
    return (f["rule"], f.get("function") or "?")


def audit(tool, root, files, env, with_=()):
    p = subprocess.run([tool, "audit", "--tree", root, "--no-cache", "-q", "-j1", "--format", "json"]
                       + [os.path.join(root, x) for x in files + [w for w in with_ if w not in files]],
                       capture_output=True, text=True, env=env)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return None, "exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
    if doc.get("files", {}).get("failed") or doc.get("files", {}).get("partial"):
        return None, "failed or partial: %s" % doc.get("problems")
    return collections.Counter(key(g) for g in doc["findings"] if g["file"] in files), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", default="/tmp/fixcheck")
    ap.add_argument("--copy-dir", action="append", default=[],
                    help="copy this directory of the tree whole (its headers reached through -I)")
    ap.add_argument("--with", dest="with_", action="append", default=[],
                    help="audit this file of the tree along with each patched file (facts it publishes)")
    ap.add_argument("--only", type=int, action="append", help="check only fix N (as numbered in the output)")
    ap.add_argument("audit")
    a = ap.parse_args()
    tree = os.path.realpath(a.tree)
    doc = json.load(open(a.audit))
    fixes = [(f, fx) for f in doc["findings"] for fx in f.get("fixes", [])]
    touched = {}
    for f, fx in fixes:
        fx["_files"] = sorted(set(re.findall(r"^diff --git a/(\S+) b/", fx["diff"], re.M)))
        for x in fx["_files"]:
            touched[x] = True
    if os.path.exists(a.work):
        shutil.rmtree(a.work)
    os.makedirs(a.work)
    root = os.path.join(a.work, "tree")
    shadow(tree, root, set(touched), set(a.copy_dir))
    orig = {x: open(os.path.join(root, x), "rb").read() for x in touched}
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(a.work, "xdg"))
    before = {}
    n = applied = clean = 0
    for f, fx in fixes:
        n += 1
        if a.only and n not in a.only:
            continue
        files = fx["_files"]
        cfiles = [x for x in files if x.endswith(".c")]
        for x in cfiles:
            if x not in before:
                before[x], err = audit(a.tool, root, [x], env, a.with_)
                if err:
                    print("before %s: %s" % (x, err))
        pf = os.path.join(a.work, "%02d.diff" % n)
        open(pf, "w").write(fx["diff"])
        chk = subprocess.run(["git", "apply", "--check", pf], cwd=root, capture_output=True, text=True)
        if chk.returncode:
            verdict = "apply FAIL: " + (chk.stderr.strip().splitlines() or ["?"])[0]
        else:
            applied += 1
            subprocess.run(["git", "apply", pf], cwd=root, check=True)
            b = collections.Counter()
            for x in cfiles:
                b.update(before.get(x) or {})
            now = collections.Counter()
            verdict = None
            for x in cfiles:
                c, err = audit(a.tool, root, [x], env, a.with_)
                if err:
                    verdict = "re-analysis failed: " + err
                    break
                now.update(c)
            if verdict is None:
                gone = b[key(f)] > now[key(f)]
                new = [k for k in now if now[k] > b[k]]
                if gone and not new:
                    clean += 1
                    verdict = "clean"
                else:
                    verdict = ("finding still there (%d before, %d after) " % (b[key(f)], now[key(f)]) if not gone else "") + \
                              ("new: %s" % new if new else "")
            for x in files:
                open(os.path.join(root, x), "wb").write(orig[x])
        print("%02d %s:%d %s %s [%s] %s: %s" % (n, f["file"], f["line"], f.get("function"), f["rule"],
                                             fx.get("kind"), ",".join(files), verdict))
        sys.stdout.flush()
    m = len(a.only) if a.only else n
    print("fixes offered %d (checked %d), apply --check %d/%d, re-analyzed clean %d/%d" % (n, m, applied, m, clean, m))
    m = len(a.only) if a.only else n
    return 0 if m == applied == clean else 1


if __name__ == "__main__":
    sys.exit(main())
