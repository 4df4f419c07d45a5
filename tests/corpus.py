#!/usr/bin/env python3
"""Corpus runner: annotated C cases in corpus/, sparse validation/ style.

Each case is ordinary kernel-shaped C.  Lines carry markers in // comments:

    // ok                      a site on this line, no finding
    // warn: RULE[, RULE]      a site on this line with exactly these findings at
                               severity warning or error
    // note: RULE[, RULE]      ... and exactly these findings at severity note (a
                               "possible" costly order, or a rule that is a note)
    // site: KEY=VAL ...       a site on this line with these facts (no finding
                               unless the line also carries warn:)

Site keys: order=LO..HI or order=?, fallback=KIND, api=NAME,
conf=proven|likely|possible|none (the JSON "confidence"; none: absent),
fbat=LINE (the JSON "fallback_at" is this line of the case), stall=yes|no|maybe,
contig=physical|virtual|unknown (the JSON "contiguity"), contigat=LINE
("contiguity_at"),
src=KIND (the most telling kind of the size or order: size_source[0]), must=F|F (each
in gfp.must), mustnot=F|F (none in gfp must or may), may=F|F (each in the
JSON gfp.may list: possible on some paths, not on all), fbmust=F|F (each in
the must of every attempt class whose role is "fallback"; of every class when
none has one), att=LO..HI/ROLE[/+F|F][/-F|F]
(an attempt class with exactly these orders and role, whose must has every +
flag and whose may has no - flag; may be given more than once).  Flags are
written without __GFP_.  Every other // comment in a case is an error: a
misspelt marker must not pass silently.

The file ends with a comment block:

    /*
     * check-name: short description
     * check-command: gfpaudit audit $file      (optional; this is the default)
     * check-known-to-fail                      (optional)
     * check-exit-value: N                      (optional; 1 with warn markers, or note
                                                markers and --severity note; else 0)
     *
     * check-output-start
     * ...expected stdout of the command...
     * check-output-end
     */

For each case the runner (1) parses it with plain clang against
include/kmodel and fails on any diagnostic, (2) runs the command and compares
stdout with the block exactly and the exit value, (3) runs
`gfpaudit audit --format json --sites FILE` (with the command's
--allocator-model, if it names one) and checks every marker against
the sites and findings, and that no site or finding sits on an unmarked line.
A known-to-fail case that fails is XFAIL (counted as skipped); one that
passes is XPASS (a failure: drop the tag).  A case that does not parse with
clang fails even when known to fail.

    tests/corpus.py [--gfpaudit BIN] [-v] [-j N] [FILE...]   run (default: corpus/*.c)
    tests/corpus.py --format FILE...                     rewrite the output blocks

Run from anywhere; paths are reported relative to the repository root, which
is what the expected output blocks contain.
"""
import argparse
import difflib
import glob
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DEFAULT_COMMAND = "gfpaudit audit $file"

KNOWN_TAGS = {"check-name", "check-command", "check-known-to-fail", "check-exit-value",
              "check-output-start", "check-output-end"}
SITE_KEYS = {"order", "fallback", "api", "must", "mustnot", "may", "fbmust", "att", "conf", "src",
             "fbat", "stall", "contig", "contigat"}
STALLS = {"yes", "no", "maybe"}
CONTIGS = {"physical", "virtual", "unknown"}
CONFIDENCES = {"proven", "likely", "possible", "none"}
SOURCES = {"const", "config", "param", "user", "remote", "device", "runtime", "unknown"}
ROLES = {"fallback", "last"}
FALLBACKS = {"none", "order-loop", "lower-order", "vmalloc", "kvmalloc", "unknown", "caller-smaller", "caller-other-path", "caller-feature-off", "other-path", "feature-off"}
# the rule ids, and those about a function's mask/alloc_flags bookkeeping
# rather than an allocation site (their warn markers need no site on the
# line): asked from the gfpaudit under test (`gfpaudit rules --format json`)
RULES = set()
FUNCTION_RULES = set()
# the single-bit flags gfpaudit knows (include/gfpaudit/gfp.h GFP_FLAG_LIST)
GFP_FLAGS = {"DMA", "HIGHMEM", "DMA32", "MOVABLE", "RECLAIMABLE", "HIGH", "IO", "FS",
             "ZERO", "UNUSED_BIT", "DIRECT_RECLAIM", "KSWAPD_RECLAIM", "WRITE", "NOWARN",
             "RETRY_MAYFAIL", "NOFAIL", "NORETRY", "MEMALLOC", "COMP", "NOMEMALLOC",
             "HARDWALL", "THISNODE", "ACCOUNT", "ZEROTAGS", "SKIP_ZERO", "SKIP_KASAN",
             "NOLOCKDEP", "NO_OBJ_EXT", "NOTRACK", "OTHER_NODE", "NOACCOUNT"}


def load_rules(gfpaudit):
    """Fill RULES and FUNCTION_RULES from the binary; an error text or None."""
    try:
        p = subprocess.run([gfpaudit, "rules", "--format", "json"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        rules = json.loads(p.stdout)["rules"] if p.returncode == 0 else None
    except (OSError, ValueError, KeyError, subprocess.SubprocessError) as e:
        return "%s rules --format json: %s" % (gfpaudit, e)
    if not rules:
        return "%s rules --format json: exit %d, no rules" % (gfpaudit, p.returncode)
    RULES.update(r["id"] for r in rules)
    FUNCTION_RULES.update(r["id"] for r in rules if r.get("scope") == "function")
    return None


class CaseError(Exception):
    """The case file itself is malformed."""


class Case:
    def __init__(self, path):
        self.path = path               # relative to ROOT, as passed to gfpaudit
        self.name = None
        self.command = DEFAULT_COMMAND
        self.known_to_fail = False
        self.exit_value = None
        self.expected = []             # expected stdout lines
        self.markers = {}              # line -> {"warn": set|None, "ok": bool, "site": dict|None}
        self.block_start = None        # index of the block's first line ("/*")
        self.out_start = self.out_end = None  # indexes of the check-output-start/end lines
        self.lines = []


def _split_flags(key, val, lineno):
    flags = [f for f in val.split("|") if f]
    if not flags:
        raise CaseError("line %d: %s= needs at least one flag" % (lineno, key))
    for f in flags:
        if f.startswith("__GFP_"):
            f = f[6:]
        if f not in GFP_FLAGS:
            raise CaseError("line %d: unknown gfp flag '%s' in %s=" % (lineno, f, key))
    return [f[6:] if f.startswith("__GFP_") else f for f in flags]


def _parse_att(val, lineno):
    parts = val.split("/")
    m = re.fullmatch(r"(\d+)\.\.(\d+)", parts[0])
    if len(parts) < 2 or not m or parts[1] not in ROLES:
        raise CaseError("line %d: att= must be LO..HI/ROLE[/+F|F][/-F|F], not '%s'" % (lineno, val))
    att = {"orders": (int(m.group(1)), int(m.group(2))), "role": parts[1], "must": [], "never": []}
    for p in parts[2:]:
        if p[:1] == "+":
            att["must"] = _split_flags("att", p[1:], lineno)
        elif p[:1] == "-":
            att["never"] = _split_flags("att", p[1:], lineno)
        else:
            raise CaseError("line %d: att= flag sets start with + or -: '%s'" % (lineno, p))
    return att


def _parse_site(text, lineno):
    site = {}
    for tok in text.split():
        if "=" not in tok:
            raise CaseError("line %d: site key without '=': '%s'" % (lineno, tok))
        key, val = tok.split("=", 1)
        if key not in SITE_KEYS:
            raise CaseError("line %d: unknown site key '%s'" % (lineno, key))
        if key == "att":
            site.setdefault("att", []).append(_parse_att(val, lineno))
            continue
        if key in site:
            raise CaseError("line %d: site key '%s' given twice" % (lineno, key))
        if key == "order":
            if val == "?":
                site[key] = None
            else:
                m = re.fullmatch(r"(\d+)\.\.(\d+)", val)
                if not m or int(m.group(1)) > int(m.group(2)):
                    raise CaseError("line %d: order must be LO..HI or ?, not '%s'" % (lineno, val))
                site[key] = (int(m.group(1)), int(m.group(2)))
        elif key == "fallback":
            if val not in FALLBACKS:
                raise CaseError("line %d: unknown fallback '%s'" % (lineno, val))
            site[key] = val
        elif key == "conf":
            if val not in CONFIDENCES:
                raise CaseError("line %d: unknown confidence '%s'" % (lineno, val))
            site[key] = val
        elif key == "src":
            if val not in SOURCES:
                raise CaseError("line %d: unknown source kind '%s'" % (lineno, val))
            site[key] = val
        elif key in ("fbat", "contigat"):
            if not re.fullmatch(r"\d+", val):
                raise CaseError("line %d: %s= takes a line number, not '%s'" % (lineno, key, val))
            site[key] = int(val)
        elif key == "stall":
            if val not in STALLS:
                raise CaseError("line %d: unknown stall '%s'" % (lineno, val))
            site[key] = val
        elif key == "contig":
            if val not in CONTIGS:
                raise CaseError("line %d: unknown contiguity '%s'" % (lineno, val))
            site[key] = val
        elif key == "api":
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", val):
                raise CaseError("line %d: bad api name '%s'" % (lineno, val))
            site[key] = val
        else:
            site[key] = _split_flags(key, val, lineno)
    if not site:
        raise CaseError("line %d: 'site:' with no keys" % lineno)
    return site


def _parse_marker(comment, lineno):
    """comment: the text after the first // of a line."""
    mk = {"warn": None, "note": None, "ok": False, "site": None}
    for seg in comment.split("//"):
        seg = seg.strip()
        if seg == "ok":
            if mk["ok"]:
                raise CaseError("line %d: 'ok' given twice" % lineno)
            mk["ok"] = True
        elif seg.startswith("warn:") or seg.startswith("note:"):
            kind = seg[:4]
            if mk[kind] is not None:
                raise CaseError("line %d: '%s:' given twice" % (lineno, kind))
            rules = [r for r in re.split(r"[,\s]+", seg[5:].strip()) if r]
            if not rules:
                raise CaseError("line %d: '%s:' without a rule id" % (lineno, kind))
            for r in rules:
                if r not in RULES:
                    raise CaseError("line %d: unknown rule id '%s'" % (lineno, r))
            mk[kind] = set(rules)
        elif seg.startswith("site:"):
            if mk["site"] is not None:
                raise CaseError("line %d: 'site:' given twice" % lineno)
            mk["site"] = _parse_site(seg[5:], lineno)
        else:
            raise CaseError("line %d: unknown marker '// %s' (markers: ok, warn:, note:, site:)"
                            % (lineno, seg))
    if mk["ok"] and (mk["warn"] is not None or mk["note"] is not None):
        raise CaseError("line %d: 'ok' and 'warn:'/'note:' on one line" % lineno)
    return mk


def parse_case(path):
    c = Case(path)
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        c.lines = f.read().split("\n")
    lines = c.lines
    # the check block: the last /* ... */ comment that holds check-name:
    end = None
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip() == "*/":
            end = i
            break
    if end is None:
        raise CaseError("no closing check block '*/'")
    start = None
    for i in range(end, -1, -1):
        if lines[i].strip() == "/*":
            start = i
            break
    if start is None:
        raise CaseError("no opening check block '/*'")
    if any(l.strip() for l in lines[end + 1:]):
        raise CaseError("text after the check block")
    c.block_start = start
    in_output = False
    seen = set()
    for i in range(start + 1, end):
        raw = lines[i]
        m = re.fullmatch(r" \*(?: (.*))?", raw)
        if not m:
            raise CaseError("line %d: check block lines start with ' * '" % (i + 1))
        text = m.group(1) or ""
        if in_output:
            if text.strip() == "check-output-end":
                c.out_end = i
                in_output = False
                seen.add("check-output-end")
            else:
                c.expected.append(text)
            continue
        if not text.strip():
            continue
        tm = re.fullmatch(r"(check-[a-z-]+)(?::\s*(.*))?", text.strip())
        if not tm:
            raise CaseError("line %d: not a check tag: '%s'" % (i + 1, text.strip()))
        tag, val = tm.group(1), (tm.group(2) or "").strip()
        if tag not in KNOWN_TAGS:
            raise CaseError("line %d: unknown tag '%s'" % (i + 1, tag))
        if tag in seen:
            raise CaseError("line %d: tag '%s' given twice" % (i + 1, tag))
        seen.add(tag)
        if tag == "check-name":
            if not val:
                raise CaseError("check-name is empty")
            c.name = val
        elif tag == "check-command":
            if "$file" not in val:
                raise CaseError("check-command must use $file")
            c.command = val
        elif tag == "check-known-to-fail":
            if val:
                raise CaseError("check-known-to-fail takes no value (give the reason in a comment)")
            c.known_to_fail = True
        elif tag == "check-exit-value":
            if not re.fullmatch(r"\d+", val):
                raise CaseError("check-exit-value must be a number")
            c.exit_value = int(val)
        elif tag == "check-output-start":
            c.out_start = i
            in_output = True
        elif tag == "check-output-end":
            raise CaseError("check-output-end without check-output-start")
    if in_output:
        raise CaseError("check-output-start without check-output-end")
    if c.name is None:
        raise CaseError("no check-name")
    if c.out_start is None:
        raise CaseError("no check-output-start/check-output-end block")
    # markers in the code above the block
    for i in range(start):
        line = lines[i]
        pos = line.find("//")
        if pos < 0:
            continue
        c.markers[i + 1] = _parse_marker(line[pos + 2:], i + 1)
    if c.exit_value is None:
        notes_count = "--severity note" in c.command
        c.exit_value = 1 if any(m["warn"] or (notes_count and m["note"]) for m in c.markers.values()) else 0
    return c


def run_command(case, gfpaudit, command):
    argv = []
    for k, tok in enumerate(shlex.split(command)):
        if k == 0 and tok == "gfpaudit":
            tok = gfpaudit
        argv.append(tok.replace("$file", case.path))
    p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


CLANG_RES = None


def clang_check(case):
    global CLANG_RES
    if CLANG_RES is None:
        CLANG_RES = subprocess.run(["clang", "-print-resource-dir"], stdout=subprocess.PIPE,
                                   universal_newlines=True, check=True).stdout.strip()
    p = subprocess.run(["clang", "-fsyntax-only", "-nostdinc", "-isystem", CLANG_RES + "/include",
                        "-I" + os.path.join(ROOT, "include/kmodel"), "-D__KERNEL__", "-std=gnu11",
                        case.path], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode or p.stdout.strip():
        return ["clang does not parse it cleanly:"] + ["  " + l for l in p.stdout.rstrip().split("\n")]
    return []


def _fmt_site(s):
    o = s.get("order") or {}
    return "%s order=%s..%s must=%s may=%s fallback=%s" % (
        s.get("api"), o.get("lo"), o.get("hi"),
        "|".join(f[6:] for f in (s.get("gfp") or {}).get("must", [])),
        "|".join(f[6:] for f in (s.get("gfp") or {}).get("may", [])), s.get("fallback"))


def _flagset(s, part, key):
    return {f[6:] if f.startswith("__GFP_") else f for f in ((s.get(part) or {}).get(key) or [])}


def site_mismatch(spec, s):
    """Why site `s` (JSON) does not satisfy `spec`; None when it does."""
    why = []
    if "order" in spec:
        o = s.get("order") or {}
        lo, hi = o.get("lo"), o.get("hi")
        if spec["order"] is None:
            if lo is not None or hi is not None:
                why.append("order %s..%s, expected unknown" % (lo, hi))
        elif (lo, hi) != spec["order"]:
            why.append("order %s..%s, expected %d..%d" % ((lo, hi) + spec["order"]))
    if "fallback" in spec and s.get("fallback") != spec["fallback"]:
        why.append("fallback %s, expected %s" % (s.get("fallback"), spec["fallback"]))
    for key, field in (("fbat", "fallback_at"), ("contigat", "contiguity_at")):
        if key in spec:
            at = s.get(field) or ""
            got = int(at.rsplit(":", 1)[1]) if ":" in at else None
            if got != spec[key]:
                why.append("%s line %s, expected %d" % (field, got, spec[key]))
    if "stall" in spec and s.get("stall") != spec["stall"]:
        why.append("stall %s, expected %s" % (s.get("stall"), spec["stall"]))
    if "contig" in spec and s.get("contiguity") != spec["contig"]:
        why.append("contiguity %s, expected %s" % (s.get("contiguity"), spec["contig"]))
    if "conf" in spec and (s.get("confidence") or "none") != spec["conf"]:
        why.append("confidence %s, expected %s" % (s.get("confidence") or "none", spec["conf"]))
    if "src" in spec:
        ss = s.get("size_source") or []
        got = ss[0].get("kind") if ss else None
        if got != spec["src"]:
            why.append("size source %s, expected %s" % (got, spec["src"]))
    if "api" in spec and s.get("api") != spec["api"]:
        why.append("api %s, expected %s" % (s.get("api"), spec["api"]))
    must, may = _flagset(s, "gfp", "must"), _flagset(s, "gfp", "may")
    for f in spec.get("must", []):
        if f not in must:
            why.append("%s not in gfp.must" % f)
    for f in spec.get("mustnot", []):
        if f in must or f in may:
            why.append("%s can be set" % f)
    for f in spec.get("may", []):
        if f not in may:
            why.append("%s not in gfp.may (set on some paths only)" % f)
    atts = s.get("attempts") or []
    if "fbmust" in spec:
        # the classes with a fallback; else every class; else the site's mask
        fb = [a for a in atts if a.get("role") == "fallback"] or atts or [s]
        for f in spec["fbmust"]:
            if any(f not in _flagset(a, "gfp", "must") for a in fb):
                why.append("%s not set on every attempt that has a fallback" % f)
    for want in spec.get("att", []):
        lo, hi = want["orders"]
        hit = [a for a in atts if a.get("role") == want["role"] and
               ((a.get("orders") or {}).get("lo"), (a.get("orders") or {}).get("hi")) == (lo, hi)]
        if not hit:
            why.append("no %s attempt class at orders %d..%d (have: %s)" % (
                want["role"], lo, hi, ", ".join("%s..%s/%s" % ((a.get("orders") or {}).get("lo"),
                                                            (a.get("orders") or {}).get("hi"), a.get("role"))
                                                 for a in atts)))
            continue
        a = hit[0]
        for f in want["must"]:
            if f not in _flagset(a, "gfp", "must"):
                why.append("%s not in the must of the %s class %d..%d" % (f, want["role"], lo, hi))
        for f in want["never"]:
            if f in _flagset(a, "gfp", "may"):
                why.append("%s can be set in the %s class %d..%d" % (f, want["role"], lo, hi))
    return "; ".join(why) if why else None


def check_markers(case, data):
    errs = []
    problems = [p for p in data.get("problems", []) if p.get("file") == case.path]
    for p in problems:
        errs.append("gfpaudit %s the file: %s" % (p.get("status"), p.get("reason")))
    if problems:
        return errs
    sites, findings = {}, {}
    for s in data.get("sites", []):
        if s.get("file") != case.path:
            errs.append("site outside the case: %s:%s %s" % (s.get("file"), s.get("line"), s.get("api")))
            continue
        sites.setdefault(s["line"], []).append(s)
    for f in data.get("findings", []):
        if f.get("file") != case.path:
            errs.append("finding outside the case: %s:%s [%s]" % (f.get("file"), f.get("line"), f.get("rule")))
            continue
        kind = "note" if f.get("severity") == "note" else "warn"
        findings.setdefault(f["line"], set()).add((kind, f["rule"]))
    for line, mk in sorted(case.markers.items()):
        here = sites.get(line, [])
        got = findings.get(line, set())
        marked = (mk["warn"] or set()) | (mk["note"] or set())
        if not here and not (marked and marked <= FUNCTION_RULES):
            errs.append("line %d: no site reported (marker: %s)" % (line, case.lines[line - 1].split("//", 1)[1].strip()))
        want = {("warn", r) for r in mk["warn"] or ()} | {("note", r) for r in mk["note"] or ()}
        if got != want:
            fmt = lambda xs: ", ".join("%s: %s" % x for x in sorted(xs)) or "none"
            errs.append("line %d: findings [%s], expected [%s]" % (line, fmt(got), fmt(want)))
        if mk["site"] and here:
            why = [site_mismatch(mk["site"], s) for s in here]
            if all(why):
                for s, w in zip(here, why):
                    errs.append("line %d: site %s: %s" % (line, _fmt_site(s), w))
    for line in sorted(set(sites) | set(findings)):
        if line in case.markers:
            continue
        for s in sites.get(line, []):
            errs.append("line %d: unexpected site (no marker): %s" % (line, _fmt_site(s)))
        for k, r in sorted(findings.get(line, set())):
            errs.append("line %d: unexpected finding [%s: %s] (no marker)" % (line, k, r))
    return errs


def run_case(case, gfpaudit):
    """List of failure reasons (empty: passed) and whether clang failed."""
    errs = clang_check(case)
    if errs:
        return errs, True
    rc, out, err = run_command(case, gfpaudit, case.command)
    got = out.split("\n")
    if got and got[-1] == "":
        got.pop()
    if got != case.expected:
        errs.append("output differs:")
        errs += ["  " + l for l in difflib.unified_diff(case.expected, got, "expected", "actual", lineterm="")]
    if rc != case.exit_value:
        errs.append("exit value %d, expected %d%s" % (rc, case.exit_value,
                    (" (stderr: %s)" % err.strip().split("\n")[-1]) if err.strip() else ""))
    # the markers are checked against the same allocator model the command used
    m = re.search(r"--allocator-model[ =](\S+)", case.command)
    model = " --allocator-model " + m.group(1) if m else ""
    jrc, jout, jerr = run_command(case, gfpaudit, "gfpaudit audit --format json --sites%s $file" % model)
    try:
        data = json.loads(jout)
    except ValueError as e:
        errs.append("--format json gave no JSON (exit %d): %s; stderr: %s" % (jrc, e, jerr.strip()[-300:]))
        return errs, False
    errs += check_markers(case, data)
    return errs, False


def format_case(case, gfpaudit):
    rc, out, err = run_command(case, gfpaudit, case.command)
    got = out.split("\n")
    if got and got[-1] == "":
        got.pop()
    block = [(" * " + l) if l else " *" for l in got]
    new = case.lines[:case.out_start + 1] + block + case.lines[case.out_end:]
    changed = new != case.lines
    if changed:
        with open(os.path.join(ROOT, case.path), "w", encoding="utf-8") as f:
            f.write("\n".join(new))
    return changed, rc


def case_paths(args):
    if not args:
        return sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "corpus", "*.c")))
    out = []
    for a in args:
        p = os.path.abspath(a)
        if os.path.isdir(p):
            out += sorted(os.path.relpath(q, ROOT) for q in glob.glob(os.path.join(p, "*.c")))
        else:
            out.append(os.path.relpath(p, ROOT))
    return out


def main():
    ap = argparse.ArgumentParser(description="run the annotated corpus")
    ap.add_argument("--gfpaudit", default=os.environ.get("GFPAUDIT") or os.path.join(ROOT, "gfpaudit"))
    ap.add_argument("--format", action="store_true", help="rewrite the check-output blocks from current output")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="cases run in parallel (default 1)")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    gfpaudit = os.path.abspath(a.gfpaudit) if os.path.sep in a.gfpaudit else a.gfpaudit
    paths = case_paths(a.files)
    why = load_rules(gfpaudit)
    if why:
        print("corpus: " + why, file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    if not paths:
        print("corpus: no cases found", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    if a.format:
        if not a.files:
            print("corpus: --format needs the case files to rewrite", file=sys.stderr)
            return 2
        bad = 0
        for p in paths:
            try:
                c = parse_case(p)
            except (CaseError, OSError) as e:
                print("%s: %s" % (p, e), file=sys.stderr)
                bad += 1
                continue
            changed, rc = format_case(c, gfpaudit)
            print("%s: %s (exit %d, expected %d)" % (p, "rewritten" if changed else "unchanged", rc, c.exit_value))
        return 1 if bad else 0
    def one(p):
        try:
            c = parse_case(p)
        except (CaseError, OSError) as e:
            return p, None, ["bad case: %s" % e], True
        errs, hard = run_case(c, gfpaudit)
        return p, c, errs, hard

    if a.jobs > 1:
        import concurrent.futures
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            results = list(ex.map(one, paths))
    else:
        results = [one(p) for p in paths]
    npass = nfail = nskip = 0
    for p, c, errs, hard in results:
        if c is None:
            print("FAIL  %s: %s" % (p, errs[0]))
            nfail += 1
        elif errs and c.known_to_fail and not hard:
            print("XFAIL %s (%s)" % (p, c.name))
            if a.verbose:
                for e in errs:
                    print("      " + e)
            nskip += 1
        elif errs:
            print("FAIL  %s (%s)" % (p, c.name))
            for e in errs:
                print("      " + e)
            nfail += 1
        elif c.known_to_fail:
            print("XPASS %s (%s): passes now, drop check-known-to-fail" % (p, c.name))
            nfail += 1
        else:
            if a.verbose:
                print("PASS  %s (%s)" % (p, c.name))
            npass += 1
    if nskip:
        print("(%d known-to-fail case%s counted as skipped)" % (nskip, "" if nskip == 1 else "s"))
        print("%d passed, %d failed, %d skipped" % (npass, nfail, nskip))
    else:
        print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
