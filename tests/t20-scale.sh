#!/usr/bin/env bash
# Whole-tree machinery: SARIF (validated against the official 2.1.0 schema),
# the result cache, baselines, shards and merge, the prefilter, and the worker
# pool surviving an injected crash and hang.  Needs only the binary and
# python3-jsonschema (Debian; a failure without it); the kernel tree is not
# used here.
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
data=$here/data/scale
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$here/lib/assert.sh"
# never touch the user's own cache
export XDG_CACHE_HOME=$out/xdg

# Debian's python3 carries python3-jsonschema; prefer it over another python
# that may come first on PATH.
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
validate() { "$PY" "$here/sarif-validate.py" "$@"; }

if [ -z "$PY" ]; then
	fail "python3 with jsonschema (Debian python3-jsonschema; make deps installs it)"
	finish
fi

# ---- SARIF ----
# the validator must reject a broken log (else the checks below prove nothing)
echo '{"runs": [{"tool": {"driver": {}}}]}' > "$out/broken.sarif"
if validate "$out/broken.sarif" 2>/dev/null; then fail "validator rejects a log without version and driver name"
else ok "validator rejects a log without version and driver name"; fi

"$G" audit -q --format sarif "$data" > "$out/audit.sarif" 2>"$out/audit.err"
check "audit --format sarif validates" validate "$out/audit.sarif"
check "sarif has one run with the rule table" "$PY" - "$out/audit.sarif" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
run, = d["runs"]
rules = run["tool"]["driver"]["rules"]
assert any(r["id"] == "costly-no-noretry" for r in rules), rules
assert all(r["defaultConfiguration"]["level"] in ("note", "warning", "error") for r in rules)
assert "files" in run["properties"]
PYEOF

# ---- cache ----
# a run's "files" counts, as "analyzed skipped failed cached prefiltered"
counts() { "$PY" -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"]; print(f["analyzed"], f["skipped"], f["failed"], f["cached"], f["prefiltered"])' "$1"; }
workers() { sed -n 's/.* \([0-9]*\) parsed by workers.*/\1/p' "$1"; }
cp -r "$data" "$out/src"
nfiles=$(ls "$out/src"/*.c | wc -l)
rm -rf "$out/xdg"
"$G" audit -v -q --format json "$out/src" > "$out/c1.json" 2>"$out/c1.err"
"$G" audit -v -q --format json "$out/src" > "$out/c2.json" 2>"$out/c2.err"
check "the default cache lives under \$XDG_CACHE_HOME" test -f "$out/xdg/gfpaudit/cache.sqlite"
c1=$(counts "$out/c1.json"); c2=$(counts "$out/c2.json")
check "cold run: nothing from the cache ($c1)" test "$(echo $c1 | cut -d' ' -f4)" = 0
check "warm run: every file from the cache ($c2)" test "$(echo $c2 | cut -d' ' -f4)" = "$nfiles"
check "warm run: no file parsed by a worker" test "$(workers "$out/c2.err")" = 0
check "warm run: same counts as the cold run" test "$(echo $c1 | cut -d' ' -f1-3)" = "$(echo $c2 | cut -d' ' -f1-3)"
echo '/* touched */' >> "$out/src/grow.c"
"$G" audit -v -q --format json "$out/src" > "$out/c3.json" 2>"$out/c3.err"
check "a changed file misses, the others hit" test "$(counts "$out/c3.json" | cut -d' ' -f4)" = $((nfiles - 1))
check "  and only it goes to a worker" test "$(workers "$out/c3.err")" = 1
"$G" audit -v -q --format json --cache "$out/other.sqlite" "$out/src" > "$out/c4.json" 2>"$out/c4.err"
check "--cache FILE starts its own cache" test -f "$out/other.sqlite" -a "$(counts "$out/c4.json" | cut -d' ' -f4)" = 0
rm -rf "$out/xdg"
"$G" audit -v -q --format json --no-cache "$out/src" > "$out/c5.json" 2>"$out/c5.err"
check "--no-cache neither reads nor writes" test ! -e "$out/xdg" -a "$(counts "$out/c5.json" | cut -d' ' -f4)" = 0
"$G" audit -q --cache /proc/nonexistent/x.sqlite "$out/src" >/dev/null 2>&1
check "an unusable --cache FILE is a usage error" test $? = 2
"$G" audit -v -q --cache "$out/other.sqlite" --enable costly-no-fallback --format json "$out/src" > "$out/c6.json" 2>/dev/null
check "other rules, other cache entries" test "$(counts "$out/c6.json" | cut -d' ' -f4)" = 0

# ---- prefilter ----
"$G" audit -v -q --no-cache --prefilter --format json "$out/src" > "$out/p1.json" 2>/dev/null
"$G" audit -v -q --no-cache --no-prefilter --format json "$out/src" > "$out/p2.json" 2>"$out/p2.err"
check "the file without allocator calls is prefiltered" test "$(counts "$out/p1.json" | cut -d' ' -f5)" = 1
check "--no-prefilter sends every file to a worker" test "$(counts "$out/p2.json" | cut -d' ' -f5)" = 0 -a "$(workers "$out/p2.err")" = "$nfiles"
"$G" audit --candidates "$out/src" > "$out/cand.txt" 2>/dev/null
check "--candidates lists the files the prefilter would parse" test "$(sed 's|.*/||' "$out/cand.txt" | tr '\n' ' ')" = "grow.c table.c "
"$G" audit --candidates --no-prefilter "$out/src" > "$out/cand2.txt" 2>/dev/null
check "--candidates --no-prefilter lists every file" test "$(wc -l < "$out/cand2.txt")" = "$nfiles"
check "a prefiltered file counts as analyzed" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert not any(p["file"].endswith("quiet.c") for p in d["problems"]), d["problems"]
assert d["files"]["analyzed"] >= 1' "$out/p1.json"

# ---- baseline (hand-made: two findings quiet.c does not have) ----
cat > "$out/base.json" <<JSON
{ "tool": "gfpaudit", "findings": [
  { "rule": "costly-no-fallback", "severity": "warning", "file": "$out/src/quiet.c", "line": 12,
    "column": 3, "function": "sum", "api": "alloc_pages", "message": "old", "fingerprint": "00000000000000aa" },
  { "rule": "costly-no-fallback", "severity": "warning", "file": "$out/elsewhere.c", "line": 1,
    "column": 1, "function": "f", "api": "alloc_pages", "message": "old", "fingerprint": "00000000000000bb" } ] }
JSON
"$G" audit --no-cache --format json --baseline "$out/base.json" "$out/src/quiet.c" > "$out/b1.json" 2>"$out/b1.err"
rc=$?
check "baseline: a finding of an audited file that went away is resolved" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [f["fingerprint"] for f in d["resolved"]] == ["00000000000000aa"], d["resolved"]
assert d["findings"] == []' "$out/b1.json"
check "baseline: the summary on stderr" grep -q "baseline: 0 new, 0 unchanged, 1 resolved" "$out/b1.err"
check "baseline: nothing new, exit 0" test $rc = 0
"$G" audit --no-cache --format sarif --baseline "$out/base.json" "$out/src/quiet.c" > "$out/b2.sarif" 2>/dev/null
check "baseline: sarif with resolved findings validates" validate "$out/b2.sarif"
"$G" audit --no-cache --format json --baseline "$out/b2.sarif" "$out/src/quiet.c" > "$out/b3.json" 2>/dev/null
check "baseline: a SARIF run is a baseline too" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["resolved"] == [], d["resolved"]' "$out/b3.json"
echo '{"x": 1}' > "$out/notbase.json"
"$G" audit --no-cache --baseline "$out/notbase.json" "$out/src/quiet.c" >/dev/null 2>&1
check "baseline: a file that is no run is a usage error" test $? = 2

# ---- shards and merge ----
tree=$out/tree
for d in drivers/a drivers/a-b fs mm mm/sub; do
	mkdir -p "$tree/$d"
	cp "$here/data/scale-e2e/alloc.h" "$tree/$d/"
	for i in 1 2 3 4 5 6; do
		if [ $((i % 2)) = 0 ]; then
			printf '#include "alloc.h"\nstruct page *get%s(void)\n{\n\treturn alloc_pages(GFP_KERNEL, %s);\n}\n' "$i" "$i" > "$tree/$d/f$i.c"
		else
			printf 'static int add%s(int a)\n{\n\treturn a + %s;\n}\n' "$i" "$i" > "$tree/$d/f$i.c"
		fi
	done
done
ntree=$(find "$tree" -name '*.c' | wc -l)
"$G" audit -q --no-cache --format json "$tree" > "$out/all.json" 2>/dev/null
for k in 1 2 3; do
	"$G" audit -q --no-cache --format json --shard $k/3 "$tree" > "$out/s$k.json" 2>/dev/null
done
sum=0; for k in 1 2 3; do sum=$((sum + $("$PY" -c 'import json,sys; f=json.load(open(sys.argv[1]))["files"]; print(f["analyzed"]+f["skipped"]+f["failed"])' "$out/s$k.json"))); done
check "shards: every file in exactly one of 3 shards ($sum of $ntree)" test "$sum" = "$ntree"
check "shards: the unsharded run has findings to merge" "$PY" -c '
import json, sys; assert len(json.load(open(sys.argv[1]))["findings"]) >= 5' "$out/all.json"
"$G" merge -q "$out/s3.json" "$out/s1.json" "$out/s2.json" > "$out/merged.json"
check "shards: merge of 3 shards equals the unsharded run" diff -u "$out/all.json" "$out/merged.json"
"$G" merge -q --format sarif "$out/s1.json" "$out/s2.json" "$out/s3.json" > "$out/merged.sarif"
"$G" audit -q --no-cache --format sarif "$tree" > "$out/all.sarif" 2>/dev/null
check "shards: merged SARIF equals the unsharded SARIF" diff -u "$out/all.sarif" "$out/merged.sarif"
"$G" audit -q --no-cache --shard 3/2 "$tree" >/dev/null 2>&1
check "shards: --shard 3/2 is a usage error" test $? = 2
"$G" merge -q "$out/merged.sarif" >/dev/null 2>&1
check "merge: a SARIF input is a usage error" test $? = 2
if command -v parallel >/dev/null; then
	parallel --will-cite -j2 "$G" audit -q --no-cache --format json --shard {}/4 "$tree" '>' "$out/p{}.json" '2>/dev/null' ::: 1 2 3 4
	"$G" merge -q "$out"/p[1-4].json > "$out/pmerged.json"
	check "GNU parallel: 4 shards on 2 jobs, merged, equal the unsharded run" diff -u "$out/all.json" "$out/pmerged.json"
else
	skip "GNU parallel shards" "parallel is not installed"
fi

# ---- SARIF with findings, fixes and a baseline, through merge (hand-made run) ----
cat > "$out/run.json" <<'JSON'
{ "tool": "gfpaudit", "version": "x",
  "findings": [ { "rule": "costly-no-noretry", "severity": "warning", "file": "mm/grow ring.c",
      "line": 17, "column": 10, "function": "ring_grow", "api": "alloc_pages", "kind": "pages",
      "order": { "lo": 1, "hi": 5 }, "gfp": { "must": ["__GFP_DIRECT_RECLAIM"], "may": [] },
      "fallback": "order-loop", "gfp_expr": "GFP_KERNEL", "order_expr": "order",
      "message": "'alloc_pages' order 1..5 may stall", "source": "clang",
      "evidence": [ { "file": "mm/grow ring.c", "line": 13, "note": "order: order = want" } ],
      "fingerprint": "0123456789abcdef",
      "fixes": [ { "kind": "add-noretry", "reason": "the loop falls back",
          "diff": "--- a/mm/grow ring.c\n+++ b/mm/grow ring.c\n@@ -17,1 +17,2 @@\n-\t\tpage = alloc_pages(GFP_KERNEL, order);\n+\t\tpage = alloc_pages(GFP_KERNEL | __GFP_NORETRY |\n+\t\t\t\t   __GFP_NOWARN, order);\n" },
        { "kind": "cap-order", "reason": "x", "diff": "not a diff" } ] },
    { "rule": "gfp-contradiction", "severity": "error", "file": "/abs/elsewhere.c", "line": 3, "column": 1,
      "function": null, "api": "kmalloc", "message": "m", "fingerprint": "fedcba9876543210", "fixes": [] } ],
  "files": { "analyzed": 7, "skipped": 0, "failed": 1 },
  "problems": [ { "file": "mm/bad.c", "status": "failed", "reason": "analyzer crashed on this file (signal 6: Aborted)" } ],
  "resolved": [ { "rule": "costly-no-fallback", "severity": "warning", "file": "mm/old.c", "line": 1,
      "column": 1, "function": "f", "api": "alloc_pages", "message": "gone", "fingerprint": "1111111111111111" } ] }
JSON
"$G" merge -q --format sarif --tree "$tree" "$out/run.json" > "$out/rich.sarif"
check "merge: exit 1 with findings" test $? = 1
check "sarif with findings, fixes, evidence, notifications, baseline validates" validate "$out/rich.sarif"
check "sarif: the fix, location, fingerprint and root are all there" "$PY" - "$out/rich.sarif" "$tree" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1])); run, = d["runs"]
r0, r1 = sorted(run["results"], key=lambda r: r["ruleId"])
assert r0["ruleId"] == "costly-no-noretry" and r0["level"] == "warning"
assert r0["partialFingerprints"] == {"gfpaudit/v1": "0123456789abcdef"}
al = r0["locations"][0]["physicalLocation"]["artifactLocation"]
assert al == {"uri": "mm/grow%20ring.c", "uriBaseId": "SRCROOT"}, al
assert run["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file:///") and        run["originalUriBaseIds"]["SRCROOT"]["uri"].endswith("/"), run["originalUriBaseIds"]
rep = r0["fixes"][0]["artifactChanges"][0]["replacements"][0]
assert rep["deletedRegion"] == {"startLine": 17, "endLine": 17}, rep
assert rep["insertedContent"]["text"].endswith("__GFP_NOWARN, order);"), rep
assert r0["properties"]["fixes"][0]["kind"] == "cap-order"
assert r1["level"] == "error" and "uriBaseId" not in r1["locations"][0]["physicalLocation"]["artifactLocation"]
assert run["properties"]["resolved"][0]["fingerprint"] == "1111111111111111"
assert r0["baselineState"] == "new"
n, = run["invocations"][0]["toolExecutionNotifications"]
assert n["level"] == "error" and run["invocations"][0]["executionSuccessful"] is False
PYEOF

# ---- end to end with the engine: findings that move ----
e2e=$out/e2e
cp -r "$here/data/scale-e2e" "$e2e"
"$G" audit -q --no-cache --format json "$e2e/ring.c" > "$out/e1.json" 2>/dev/null
nbase=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$out/e1.json")
check "engine: the input has findings to baseline ($nbase)" test "$nbase" -ge 1
# shift every line, edit the function elsewhere, respell the call
"$PY" - "$e2e/ring.c" <<'PYEOF'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace('#include "alloc.h"\n', '#include "alloc.h"\n\n/* a comment that moves everything down */\nstatic int unused_counter;\n\n')
s = s.replace("\tr->pages = alloc_pages(GFP_KERNEL, 5);", "\tunused_counter++;\n\tr->pages = alloc_pages(GFP_KERNEL,\n\t\t\t       5);")
open(p, "w").write(s)
PYEOF
"$G" audit --no-cache --format json --baseline "$out/e1.json" "$e2e/ring.c" > "$out/e2.json" 2>"$out/e2.err"
rc=$?
check "baseline: moved and respelled findings are not new (exit 0)" test $rc = 0
check "baseline: ... $nbase unchanged, 0 resolved" grep -q "baseline: 0 new, $nbase unchanged, 0 resolved" "$out/e2.err"
cat >> "$e2e/ring.c" <<'C'

int ring_fill_big(struct ring *r)
{
	r->pages = alloc_pages(GFP_KERNEL, 6);
	return r->pages ? 0 : -12;
}
C
"$G" audit -q --no-cache --format json --baseline "$out/e1.json" "$e2e/ring.c" > "$out/e3.json" 2>"$out/e3.err"
rc=$?
check "baseline: a new call is new (exit 1)" test $rc = 1
check "baseline: ... and only it is reported" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["findings"] and all(f["function"] == "ring_fill_big" for f in d["findings"]), d["findings"]
assert d["resolved"] == []' "$out/e3.json"
"$PY" - "$e2e/ring.c" <<'PYEOF'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("\tr->pages = alloc_pages(GFP_KERNEL,\n\t\t\t       5);", "\tr->pages = 0;")
open(p, "w").write(s)
PYEOF
"$G" audit -q --no-cache --format json --baseline "$out/e1.json" "$e2e/ring.c" > "$out/e4.json" 2>"$out/e4.err"
check "baseline: a removed call is resolved" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [f["function"] for f in d["resolved"]] == ["ring_fill"] * len(d["resolved"]) and d["resolved"], d["resolved"]' "$out/e4.json"
# the cache with real results: a warm run gives the same findings
"$G" audit -q --cache "$out/e2e.sqlite" --format json "$e2e" > "$out/e5.json" 2>/dev/null
"$G" audit -q -v --cache "$out/e2e.sqlite" --format json "$e2e" > "$out/e6.json" 2>"$out/e6.err"
check "cache: warm findings equal cold findings" "$PY" -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["findings"] == b["findings"] and a["findings"], (a["findings"], b["findings"])
assert b["files"]["cached"] == b["files"]["analyzed"] + b["files"]["skipped"]' "$out/e5.json" "$out/e6.json"
check "cache: the warm run parsed nothing" test "$(workers "$out/e6.err")" = 0

# the engine's own fixes, as SARIF replacements that validate
"$G" audit -q --no-cache --fixes --format sarif "$here/data/scale-e2e/ring.c" > "$out/fix.sarif" 2>/dev/null
check "sarif: the engine's fixes become replacements" "$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
reps = [rep for x in r for f in x.get("fixes", []) for c in f["artifactChanges"] for rep in c["replacements"]]
assert reps and all("startLine" in p["deletedRegion"] for p in reps), r' "$out/fix.sarif"
check "sarif with the engine's fixes validates" validate "$out/fix.sarif"

# ---- progress line: on a terminal only, and not with -q ----
"$G" audit --no-cache "$tree" > /dev/null 2> "$out/prog0.err"
check "progress: silent when stderr is not a terminal" sh -c "! grep -q 'files/s' '$out/prog0.err'"
if command -v script >/dev/null; then
	script -qefc "'$G' audit --no-cache '$tree'" /dev/null > "$out/prog1.out" 2>&1
	check "progress: on a terminal, [done/total], rate, findings, time taken" \
		grep -qE "\[$ntree/$ntree\] 100%, [0-9]+ answered without parsing, [0-9.]+ files/s, took [0-9]+s, [0-9]+ findings?" "$out/prog1.out"
	script -qefc "'$G' audit -q --no-cache '$tree'" /dev/null > "$out/prog2.out" 2>&1
	check "progress: -q silences it on a terminal too" sh -c "! grep -q 'files/s' '$out/prog2.out'"
else
	skip "progress on a terminal" "script (bsdutils) is not installed"
fi

# ---- workers: an injected crash and hang cost one file each ----
GFPAUDIT_TEST_CRASH=grow.c "$G" audit -q --no-cache --no-prefilter --format json "$out/src" > "$out/w1.json" 2>"$out/w1.err"
rc=$?
# exit 3 (a failed file, nothing found) or 1 (findings in the other files)
check "a crashing worker: the run finishes (exit $rc, json written)" test \( $rc = 3 -o $rc = 1 \) -a -s "$out/w1.json"
check "  the file is failed with the signal, the others go on" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["file"].split("/")[-1]: x for x in d["problems"]}
assert p["grow.c"]["status"] == "failed" and "crashed" in p["grow.c"]["reason"], p
assert d["files"]["failed"] == 1 and sum(d["files"][k] for k in ("analyzed", "skipped", "failed")) == 3, d["files"]' "$out/w1.json"
start=$(date +%s)
GFPAUDIT_TEST_HANG=table.c "$G" audit -q --no-cache --no-prefilter --timeout 2 --format json "$out/src" > "$out/w2.json" 2>"$out/w2.err"
rc=$? took=$(( $(date +%s) - start ))
check "a hanging worker is killed after --timeout 2 (took ${took}s, exit $rc)" test \( $rc = 3 -o $rc = 1 \) -a $took -lt 10
check "  the file is failed as timed out" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["file"].split("/")[-1]: x for x in d["problems"]}
assert p["table.c"]["status"] == "failed" and "timed out" in p["table.c"]["reason"], p
assert d["files"]["failed"] == 1, d["files"]' "$out/w2.json"
GFPAUDIT_TEST_CRASH=grow.c "$G" audit -v -q --format json "$out/src" > /dev/null 2>&1
"$G" audit -v -q --format json "$out/src" > "$out/w3.json" 2>"$out/w3.err"
check "a crash is not cached: the next run parses the file again" test "$(workers "$out/w3.err")" -ge 1

echo
finish
