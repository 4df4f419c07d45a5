# site FILE.json FUNCTION -> "fallback fallback_at rules" (the first site of
# FUNCTION in an audit's JSON, and its findings as rule:severity), or "none".
# Shared by the suites on fallbacks decided across files (t68-facts-callers,
# t68-facts-forwarded).
site() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["sites"] if x["function"] == sys.argv[2]]
if not s:
    print("none")
    sys.exit()
s = s[0]
rules = sorted("%s:%s" % (f["rule"], f["severity"]) for f in d["findings"] if f["function"] == sys.argv[2])
print("%s %s %s" % (s["fallback"], s.get("fallback_at", "-"), ",".join(rules) or "-"))
PY
}
