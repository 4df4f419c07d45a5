#!/usr/bin/env python3
"""Accuracy benchmark from real kernel history (issue 14, item 5).

Runs the built gfpaudit once per tree on the files of the labeled rows and
prints
  - recall on the 6.1 pre-fix rows (history.tsv, expect_6_1 = flag),
  - quiet rates on the 6.12 post-fix rows and on quiet.tsv,
  - per-row misses with the tool's site facts,
  - precision from judged-*.tsv (true and actionable rate per file),
  - with --fixes: for the flagged 6.1 rows, the kind of the first fix the
    tool offers (kvmalloc|noretry|no-reclaim|order-cap|fallback) against
    upstream's kind (the row's `kind` column), and why none was offered.

Trees: $KDIR61 and $KDIR612 (default build/linux-6.1 and build/linux-6.12,
relative to the repository root).  Stdlib only.  Exit status: 0 report
printed, 2 bad input rows or usage, 3 tool failure (the audit exited with a
status other than 0/1, printed no JSON, or failed on a row file).

Row files (tab-separated, first line a header; see README.md):
  history.tsv  id kind file function api_6_1 line_6_1 api_6_12 line_6_12
               expect_6_1 size_source reason [expect_6_12]
               file and function may be "old>new" when the code moved
               between the trees; expect_6_12 is quiet (default), flag or
               possible.
  quiet.tsv    file function api line reason          (6.12 sites)
  facts.tsv    tree file rows reason                  (audited for their facts only)
  judged-*.tsv rule file:line function verdict ...    (ACCURACY.md)
"""
import argparse
import collections
import csv
import glob
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COSTLY = ("costly-no-fallback", "costly-no-noretry", "costly-noretry-compacts")
# only a proven costly order is a warning (likely and possible ones are notes)
WARN_CONF = ("proven",)
LIKELY_CONF = ("proven", "likely")
KINDS = ("kvmalloc", "noretry", "no-reclaim", "order-cap", "fallback")
SOURCES = ("const", "config", "param", "user", "remote", "device", "runtime")
VERDICTS = ("TP-A", "TP-NA", "FP-bound", "FP-fallback", "FP-mask", "FP-other", "UNSURE")
SLACK = 3
# the tool's fix kinds as history.tsv names upstream's
FIX_KIND = {"kvmalloc": "kvmalloc", "add-noretry": "noretry", "strip-direct-reclaim": "no-reclaim",
            "cap-order": "order-cap", "order-zero": "order-cap", "fallback-loop": "fallback"}


class BadRows(Exception):
    pass


def read_tsv(path, required):
    with open(path, newline="") as f:
        rd = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        rows = [r for r in rd if r and not r[0].startswith("#")]
    if not rows:
        return []
    head = rows[0]
    missing = [c for c in required if c not in head]
    if missing:
        raise BadRows("%s: header lacks %s" % (path, ", ".join(missing)))
    out = []
    for n, r in enumerate(rows[1:], 2):
        if len(r) < len(required):
            raise BadRows("%s:%d: %d columns, want at least %d" % (path, n, len(r), len(required)))
        d = dict(zip(head, r))
        d["_where"] = "%s:%d" % (os.path.basename(path), n)
        out.append(d)
    return out


def split_moved(s):
    parts = s.split(">")
    return parts[0], parts[-1]


def load_history(path):
    cols = ["id", "kind", "file", "function", "api_6_1", "line_6_1", "api_6_12",
            "line_6_12", "expect_6_1", "size_source", "reason"]
    rows = read_tsv(path, cols)
    seen = set()
    for r in rows:
        w = r["_where"]
        if r["id"] in seen:
            raise BadRows("%s: duplicate id %s" % (w, r["id"]))
        seen.add(r["id"])
        if r["kind"] not in KINDS:
            raise BadRows("%s: kind %r" % (w, r["kind"]))
        if r["expect_6_1"] not in ("flag", "skip"):
            raise BadRows("%s: expect_6_1 %r" % (w, r["expect_6_1"]))
        if r["size_source"] not in SOURCES:
            raise BadRows("%s: size_source %r" % (w, r["size_source"]))
        r["expect_6_12"] = (r.get("expect_6_12") or "quiet").strip()
        if r["expect_6_12"] not in ("quiet", "flag", "possible"):
            raise BadRows("%s: expect_6_12 %r" % (w, r["expect_6_12"]))
        try:
            r["line_6_1"] = int(r["line_6_1"])
            r["line_6_12"] = int(r["line_6_12"])
        except ValueError:
            raise BadRows("%s: line numbers" % w)
        r["file_6_1"], r["file_6_12"] = split_moved(r["file"])
        r["function_6_1"], r["function_6_12"] = split_moved(r["function"])
    return rows


def load_quiet(path):
    rows = read_tsv(path, ["file", "function", "api", "line", "reason"])
    for r in rows:
        try:
            r["line"] = int(r["line"])
        except ValueError:
            raise BadRows("%s: line %r" % (r["_where"], r["line"]))
    return rows


def load_fact_files(path):
    """facts.tsv: files audited beside the row files only for the facts
    they hold (a caller's argument, a store), never matched to rows."""
    rows = read_tsv(path, ["tree", "file", "rows", "reason"])
    for r in rows:
        if r["tree"] not in ("6.1", "6.12"):
            raise BadRows("%s: tree %r" % (r["_where"], r["tree"]))
    return rows


def load_judged(paths):
    out = {}
    for p in paths:
        rows = []
        with open(p, newline="") as f:
            for n, r in enumerate(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE), 1):
                if not r or r[0].startswith("#") or r[0] == "rule":
                    continue
                if len(r) >= 4 and r[3] == "TODO":  # drawn by sample.py, not judged yet
                    continue
                if len(r) < 4 or r[3] not in VERDICTS:
                    raise BadRows("%s:%d: want rule, file:line, function, verdict (%s)"
                                  % (os.path.basename(p), n, "|".join(VERDICTS)))
                rows.append({"rule": r[0], "where": r[1], "function": r[2], "verdict": r[3]})
        out[os.path.basename(p)] = rows
    return out


def base_api(a):
    a = a or ""
    return a[:-len("_noprof")] if a.endswith("_noprof") else a


def run_audit(tool, kdir, files, jobs, extra, save):
    """One audit over the row files of one tree; returns the parsed JSON."""
    cmd = [tool, "audit", "--tree", kdir, "--format", "json", "--sites", "-q",
           "-j%d" % jobs] + extra + [os.path.join(kdir, f) for f in files]
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.time() - t0
    err = p.stderr.decode(errors="replace").strip()
    if p.returncode not in (0, 1):
        sys.stderr.write("history.py: %s exited %d\n%s\n" % (" ".join(cmd[:8]) + " ...", p.returncode, err))
        return None, dt
    try:
        doc = json.loads(p.stdout.decode())
    except ValueError as e:
        sys.stderr.write("history.py: no JSON from gfpaudit on %s: %s\n%s\n" % (kdir, e, err))
        return None, dt
    if save:
        with open(save, "w") as f:
            json.dump(doc, f, indent=1)
    return doc, dt


class Index:
    def __init__(self, doc, kdir=None):
        self.kdir = kdir
        self._src = {}
        self.sites = collections.defaultdict(list)
        self.findings = collections.defaultdict(list)
        for s in doc.get("sites", []):
            self.sites[s.get("file")].append(s)
        for f in doc.get("findings", []):
            self.findings[f.get("file")].append(f)
        self.problems = {}
        for p in doc.get("problems", []):
            self.problems[p.get("file")] = p

    def _exact(self, file, line, api):
        """The tree still has the call on the row's line: match that line only."""
        if not self.kdir:
            return False
        if file not in self._src:
            try:
                with open(os.path.join(self.kdir, file), errors="replace") as f:
                    self._src[file] = f.read().split("\n")
            except OSError:
                self._src[file] = []
        src = self._src[file]
        return 0 < line <= len(src) and (api + "(") in src[line - 1].replace(" (", "(")

    def source(self, file, line):
        self._exact(file, line, "")
        src = self._src.get(file) or []
        return " ".join(src[line - 1].split())[:110] if 0 < line <= len(src) else ""

    def _match(self, items, function, api, line, file=None):
        api = base_api(api)
        same = [x for x in items if base_api(x.get("function")) == base_api(function)
                and base_api(x.get("api")) == api]
        if file and self._exact(file, line, api):
            hit = [x for x in same if x.get("line") == line]
            return hit, ("line" if hit else "none at the line")
        near = [x for x in same if abs((x.get("line") or 0) - line) <= SLACK]
        if near:
            best = min(abs((x.get("line") or 0) - line) for x in near)
            return [x for x in near if abs((x.get("line") or 0) - line) == best], "line"
        lines = {x.get("line") for x in same}
        if len(lines) == 1:
            return same, "unique"
        return [], ("ambiguous" if same else "none")

    def site(self, file, function, api, line):
        m, how = self._match(self.sites.get(file, []), function, api, line, file)
        return (m[0] if m else None), how

    def costly(self, file, function, api, line):
        # the row's line is the one of the nearest site or finding: a finding
        # three lines away does not belong to a row that has its own site
        m, _ = self._match(self.sites.get(file, []) + self.findings.get(file, []), function, api, line, file)
        at = {x.get("line") for x in m}
        return [f for f in self.findings.get(file, []) if f.get("line") in at and f.get("rule") in COSTLY
                and base_api(f.get("function")) == base_api(function) and base_api(f.get("api")) == base_api(api)]

    def near(self, file, function, line):
        return [s for s in self.sites.get(file, [])
                if base_api(s.get("function")) == base_api(function) or abs((s.get("line") or 0) - line) <= SLACK]


def is_warning(f):
    c = f.get("confidence")
    return c is None or c in WARN_CONF


def rng(o):
    if not o:
        return "?"
    lo, hi = o.get("lo"), o.get("hi")
    if lo is None and hi is None:
        return "?"
    return "%s..%s" % ("?" if lo is None else lo, "?" if hi is None else hi)


def site_facts(s):
    gfp = s.get("gfp") or {}
    must = set(gfp.get("must") or [])
    may = set(gfp.get("may") or [])

    def bit(b):
        return "yes" if b in must else ("may" if b in may else "no")
    parts = ["api %s" % s.get("api"), "kind %s" % s.get("kind"), "order %s" % rng(s.get("order"))]
    if s.get("size"):
        parts.append("size %s" % rng(s.get("size")))
    parts.append("fallback %s" % s.get("fallback"))
    parts.append("reclaim %s noretry %s" % (bit("__GFP_DIRECT_RECLAIM"), bit("__GFP_NORETRY")))
    if s.get("order_expr"):
        parts.append("expr '%s'" % s.get("order_expr")[:60])
    if s.get("confidence"):
        parts.append("confidence %s" % s["confidence"])
    if s.get("size_source"):
        parts.append("source %s" % ",".join(map(str, s["size_source"])) if isinstance(s["size_source"], list) else s["size_source"])
    return ", ".join(parts)


def why_quiet(idx, file, function, api, line):
    """Why a row that should be flagged has no warning-level costly finding."""
    if file in idx.problems:
        p = idx.problems[file]
        return "file %s: %s" % (p.get("status"), p.get("reason") or p.get("error") or "")
    s, how = idx.site(file, function, api, line)
    allf = idx.costly(file, function, api, line)
    if allf and not any(is_warning(f) for f in allf):
        return "finding only at confidence %s" % ",".join(sorted({f.get("confidence") for f in allf}))
    if s is None:
        others = idx.near(file, function, line)
        if others:
            o = ", ".join("%s@%d order %s" % (x.get("api"), x.get("line"), rng(x.get("order"))) for x in others[:4])
            return "no site for %s (%s); other sites: %s" % (api, how, o)
        return "no site (%s)" % how
    o = s.get("order") or {}
    if o.get("hi") is None:
        return "site with order ? (%s)" % site_facts(s)
    if o.get("hi") <= 3:
        return "site with order <= 3 (%s)" % site_facts(s)
    if s.get("fallback") not in (None, "none", "unknown"):
        return "site judged with a fallback (%s)" % site_facts(s)
    return "site, no costly finding (%s)" % site_facts(s)


def pct(a, b):
    return "%d/%d (%.0f%%)" % (a, b, 100.0 * a / b) if b else "0/0"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", default=os.path.join(ROOT, "gfpaudit"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--dir", default=HERE, help="where history.tsv, quiet.tsv, judged-*.tsv live")
    ap.add_argument("--save", metavar="DIR", help="keep the two audit JSON outputs in DIR")
    ap.add_argument("--load", metavar="DIR", help="read saved audit JSON from DIR instead of running the tool")
    ap.add_argument("--json", metavar="FILE", help="also write the per-row results as JSON")
    ap.add_argument("--audit-arg", action="append", default=[], help="extra argument for gfpaudit audit")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the facts of every row, not just misses")
    ap.add_argument("--fixes", action="store_true",
                    help="audit 6.1 with --fixes and compare the offered fix kind with upstream's")
    a = ap.parse_args()

    k61 = os.environ.get("KDIR61") or os.path.join(ROOT, "build", "linux-6.1")
    k612 = os.environ.get("KDIR612") or os.path.join(ROOT, "build", "linux-6.12")
    try:
        hist = load_history(os.path.join(a.dir, "history.tsv"))
        qpath = os.path.join(a.dir, "quiet.tsv")
        quiet = load_quiet(qpath) if os.path.exists(qpath) else []
        judged = load_judged(sorted(glob.glob(os.path.join(a.dir, "judged-*.tsv"))))
        fpath = os.path.join(a.dir, "facts.tsv")
        factfiles = load_fact_files(fpath) if os.path.exists(fpath) else []
    except (BadRows, OSError) as e:
        sys.stderr.write("history.py: %s\n" % e)
        return 2

    files61 = sorted({r["file_6_1"] for r in hist})
    files612 = sorted({r["file_6_12"] for r in hist} | {q["file"] for q in quiet})
    files61 = sorted(set(files61) | {x["file"] for x in factfiles if x["tree"] == "6.1"})
    files612 = sorted(set(files612) | {x["file"] for x in factfiles if x["tree"] == "6.12"})
    docs = {}
    failed = False
    for tag, kdir, files in (("6.1", k61, files61), ("6.12", k612, files612)):
        if a.load:
            with open(os.path.join(a.load, "audit-%s.json" % tag)) as f:
                docs[tag] = json.load(f)
            continue
        if not os.path.isdir(kdir):
            sys.stderr.write("history.py: no tree at %s (set KDIR61/KDIR612)\n" % kdir)
            return 3
        missing = [f for f in files if not os.path.exists(os.path.join(kdir, f))]
        if missing:
            sys.stderr.write("history.py: %s lacks %s\n" % (kdir, ", ".join(missing)))
            return 2
        save = os.path.join(a.save, "audit-%s.json" % tag) if a.save else None
        if a.save:
            os.makedirs(a.save, exist_ok=True)
        extra = a.audit_arg + (["--fixes"] if a.fixes and tag == "6.1" else [])
        doc, dt = run_audit(a.tool, kdir, files, a.jobs, extra, save)
        if doc is None:
            return 3
        fl = doc.get("files", {})
        print("audit %s: %d files in %.1f s (analyzed %s, cached %s, failed %s, partial %s) version %s"
              % (tag, len(files), dt, fl.get("analyzed"), fl.get("cached"), fl.get("failed"),
                 fl.get("partial"), doc.get("version")))
        if fl.get("failed"):
            failed = True
        docs[tag] = doc
    i61, i612 = Index(docs["6.1"], k61), Index(docs["6.12"], k612)
    if any("confidence" not in f for d in docs.values() for f in d.get("findings", [])):
        print("note: findings without a \"confidence\" field count as warnings (proven/likely)")

    results = []
    # recall on 6.1
    flag_rows = [r for r in hist if r["expect_6_1"] == "flag"]
    hit_warn = hit_any = hit_likely = 0
    misses = []
    by_kind = collections.defaultdict(lambda: [0, 0])
    by_src = collections.defaultdict(lambda: [0, 0])
    for r in hist:
        f61 = i61.costly(r["file_6_1"], r["function_6_1"], r["api_6_1"], r["line_6_1"])
        s61, _ = i61.site(r["file_6_1"], r["function_6_1"], r["api_6_1"], r["line_6_1"])
        f612 = i612.costly(r["file_6_12"], r["function_6_12"], r["api_6_12"], r["line_6_12"])
        s612, _ = i612.site(r["file_6_12"], r["function_6_12"], r["api_6_12"], r["line_6_12"])
        w61 = [f for f in f61 if is_warning(f)]
        w612 = [f for f in f612 if is_warning(f)]
        res = {"id": r["id"], "kind": r["kind"], "expect_6_1": r["expect_6_1"], "expect_6_12": r["expect_6_12"],
               "size_source": r["size_source"],
               "flag_6_1": bool(w61), "any_6_1": bool(f61), "rules_6_1": sorted({f["rule"] for f in f61}),
               "flag_6_12": bool(w612), "any_6_12": bool(f612), "rules_6_12": sorted({f["rule"] for f in f612}),
               "site_6_1": site_facts(s61) if s61 else None, "site_6_12": site_facts(s612) if s612 else None}
        if r["expect_6_1"] == "flag":
            by_kind[r["kind"]][1] += 1
            by_src[r["size_source"]][1] += 1
            if w61:
                hit_warn += 1
                by_kind[r["kind"]][0] += 1
                by_src[r["size_source"]][0] += 1
            if f61:
                hit_any += 1
            if any(f.get("confidence") in LIKELY_CONF for f in f61):
                hit_likely += 1
            if not w61:
                res["why"] = why_quiet(i61, r["file_6_1"], r["function_6_1"], r["api_6_1"], r["line_6_1"])
                misses.append((r, res))
        results.append(res)

    print()
    print("== recall on 6.1 pre-fix rows (expect_6_1 = flag): %s warnings (proven); proven or likely: %s; "
          "with any confidence: %s" % (pct(hit_warn, len(flag_rows)), pct(hit_likely, len(flag_rows)),
                                      pct(hit_any, len(flag_rows))))
    print("   by kind:   " + ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(by_kind.items())))
    print("   by source: " + ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(by_src.items())))
    skip_rows = [(r, x) for r, x in zip(hist, results) if r["expect_6_1"] == "skip"]
    sf = [r["id"] for r, x in skip_rows if x["flag_6_1"]]
    print("   skip rows (not costly in 6.1) flagged anyway: %d/%d%s"
          % (len(sf), len(skip_rows), (" (" + " ".join(sf) + ")") if sf else ""))

    q12 = [(r, x) for r, x in zip(hist, results) if r["expect_6_12"] == "quiet"]
    noisy = [(r, x) for r, x in q12 if x["flag_6_12"]]
    noisy_any = [(r, x) for r, x in q12 if x["any_6_12"]]
    print("== quiet on 6.12 post-fix rows (expect_6_12 = quiet): %s; with any confidence: %s"
          % (pct(len(q12) - len(noisy), len(q12)), pct(len(q12) - len(noisy_any), len(q12))))
    for r, x in noisy:
        print("   noisy %s %s:%d %s %s: %s" % (r["id"], r["file_6_12"], r["line_6_12"], r["api_6_12"],
                                             ",".join(x["rules_6_12"]), x["site_6_12"]))
    other = [(r, x) for r, x in zip(hist, results) if r["expect_6_12"] != "quiet"]
    for r, x in other:
        print("   %s expect_6_12 %s: %s" % (r["id"], r["expect_6_12"],
                                          ",".join(x["rules_6_12"]) or "no costly finding"))

    qres = []
    for q in quiet:
        fs = i612.costly(q["file"], q["function"], q["api"], q["line"])
        s, _ = i612.site(q["file"], q["function"], q["api"], q["line"])
        qres.append((q, [f for f in fs if is_warning(f)], fs, s))
    if quiet:
        nq = sum(1 for _, w, _, _ in qres if w)
        na = sum(1 for _, _, fs, _ in qres if fs)
        print("== quiet on quiet.tsv (6.12): %s; with any confidence: %s"
              % (pct(len(quiet) - nq, len(quiet)), pct(len(quiet) - na, len(quiet))))
        for q, w, _, s in qres:
            if w:
                print("   noisy %s:%d %s %s: %s" % (q["file"], q["line"], q["api"],
                                                  ",".join(sorted({f["rule"] for f in w})),
                                                  site_facts(s) if s else "no site"))

    if a.fixes:
        agree = offered = found = agree_found = 0
        lines = []
        for r, x in zip(hist, results):
            if r["expect_6_1"] != "flag":
                continue
            f61 = i61.costly(r["file_6_1"], r["function_6_1"], r["api_6_1"], r["line_6_1"])
            kinds = [FIX_KIND.get(fx.get("kind"), fx.get("kind")) for f in f61 for fx in f.get("fixes", [])]
            declined = "; ".join(sorted({f["fix_declined"] for f in f61 if f.get("fix_declined")}))
            got = kinds[0] if kinds else None
            x["fix_kind"] = got
            x["fix_declined"] = declined or None
            offered += bool(got)
            agree += got == r["kind"]
            found += bool(f61)
            agree_found += bool(f61) and got == r["kind"]
            lines.append("   %s %-10s offered %-10s %s%s" % (
                r["id"], r["kind"], got or "-", "agree" if got == r["kind"] else "DIFFER",
                "" if got or not f61 else ": " + (declined or "no reason recorded")))
        nflag = len([r for r in hist if r["expect_6_1"] == "flag"])
        print("== fix kind on 6.1 pre-fix rows: offered %s, same kind as upstream %s; "
              "of the rows with a costly finding (any confidence): same kind %s"
              % (pct(offered, nflag), pct(agree, nflag), pct(agree_found, found)))
        for l in lines:
            print(l)

    if misses:
        print()
        print("== misses on 6.1 (%d)" % len(misses))
        for r, x in misses:
            print("   %s %-10s %-7s %s:%d %s %s" % (r["id"], r["kind"], r["size_source"], r["file_6_1"],
                                                r["line_6_1"], r["function_6_1"], r["api_6_1"]))
            print("        why: %s" % x["why"])
            src = i61.source(r["file_6_1"], r["line_6_1"])
            if src:
                print("        at:  %s" % src)
    if a.verbose:
        print()
        print("== all rows")
        for r, x in zip(hist, results):
            print("   %s 6.1 %s %s | 6.12 %s %s" % (r["id"], ",".join(x["rules_6_1"]) or "-", x["site_6_1"] or "no site",
                                                 ",".join(x["rules_6_12"]) or "-", x["site_6_12"] or "no site"))

    if judged:
        print()
        print("== precision from judged samples (UNSURE left out)")
        tot = collections.Counter()
        rules = collections.defaultdict(collections.Counter)
        for name, rows in sorted(judged.items()):
            c = collections.Counter(r["verdict"] for r in rows)
            n = sum(v for k, v in c.items() if k != "UNSURE")
            tot.update(c)
            for r in rows:
                rules[r["rule"]][r["verdict"]] += 1
            print("   %-32s judged %3d  true %s  actionable %s  (%s)"
                  % (name, n, pct(c["TP-A"] + c["TP-NA"], n), pct(c["TP-A"], n),
                     ", ".join("%s %d" % (k, c[k]) for k in VERDICTS if c[k])))
        n = sum(v for k, v in tot.items() if k != "UNSURE")
        print("   %-32s judged %3d  true %s  actionable %s"
              % ("all", n, pct(tot["TP-A"] + tot["TP-NA"], n), pct(tot["TP-A"], n)))
        for rule, c in sorted(rules.items()):
            n = sum(v for k, v in c.items() if k != "UNSURE")
            print("     %-30s judged %3d  true %s  actionable %s"
                  % (rule, n, pct(c["TP-A"] + c["TP-NA"], n), pct(c["TP-A"], n)))

    if a.json:
        with open(a.json, "w") as f:
            json.dump({"recall": [hit_warn, len(flag_rows)], "recall_likely": [hit_likely, len(flag_rows)],
                       "recall_any": [hit_any, len(flag_rows)],
                       "quiet_6_12": [len(q12) - len(noisy), len(q12)],
                       "quiet_tsv": [len(quiet) - sum(1 for _, w, _, _ in qres if w), len(quiet)],
                       "rows": results}, f, indent=1)

    for tag, d in docs.items():
        for p in d.get("problems", []):
            if p.get("status") == "failed":
                sys.stderr.write("history.py: %s: %s failed: %s\n" % (tag, p.get("file"), p.get("reason")))
                failed = True
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
