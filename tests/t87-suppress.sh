#!/usr/bin/env bash
# t87-suppress: inline suppressions (`/* gfpaudit: ignore RULE: reason */` on
# the line or the line before) and the per-tree .gfpaudit file (issue 19
# item 3), through audit (text, --sites, JSON, SARIF), check --staged and
# cc.  Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
. "$here/lib/assert.sh"
T=$(mktemp -d /tmp/gfpaudit-t87.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache

mkdir -p "$T/tree/drivers/staging" "$T/tree/mm"
big() { printf 'void *%s(void)\n{\n%s\treturn kmalloc(1 << 20, GFP_KERNEL);%s\n}\n' "$1" "${2:+	$2
}" "${3:+ $3}"; }
{
	printf '#include <linux/gfp.h>\n#include <linux/slab.h>\n'
	big before '/* gfpaudit: ignore costly-no-fallback: the caller retries with order 0 */'   # lines 3-7, call on 6
	big same '' '// gfpaudit: ignore costly-no-fallback, noretry-without-nowarn: boot-time table'   # 8-11, call on 10
} > "$T/tree/mm/quiet.c"
{
	printf '#include <linux/gfp.h>\n#include <linux/slab.h>\n'
	big noreason '/* gfpaudit: ignore costly-no-fallback */'          # call on 6
	big typo '' '/* gfpaudit: ignore costly-no-fallbak: misspelt */'   # call on 10
	big plain                                                           # call on 14
	big far '/* gfpaudit: ignore costly-no-fallback: two lines up */
'                                                                       # comment 18, a blank line, call 20
} > "$T/tree/mm/loud.c"
cp "$T/tree/mm/loud.c" "$T/tree/drivers/staging/s.c"

cd "$T/tree"
out=$("$G" audit -q --no-cache mm/quiet.c 2>&1); rc=$?
expect_rc "only suppressed findings: exit 0" 0 $rc "$out"
expect_nogrep "suppressed findings are not printed by default" "costly-no-fallback" "$out"
out=$("$G" audit --no-cache mm/quiet.c 2>&1)
expect_grep "the summary counts the suppressed findings" "2 findings suppressed" "$out"
out=$("$G" audit -q --no-cache --sites mm/quiet.c 2>&1)
expect_grep "--sites lists the comment above, with its reason" \
	"^mm/quiet.c:6:[0-9]+: suppressed: .*\[costly-no-fallback\] \(line 5: the caller retries with order 0\)" "$out"
expect_grep "--sites lists the comment on the line (// and a rule list)" \
	"^mm/quiet.c:10:[0-9]+: suppressed: .*\[costly-no-fallback\] \(line 10: boot-time table\)" "$out"

out=$("$G" audit -q --no-cache mm/loud.c 2>&1); rc=$?
expect_rc "bad suppressions: exit 1" 1 $rc "$out"
expect_grep "no reason: an error at the comment" "^mm/loud.c:5:1: error: suppression of 'costly-no-fallback' has no reason.*\[bad-suppression\]" "$out"
expect_grep "no reason: not applied" "^mm/loud.c:6:[0-9]+: warning: .*\[costly-no-fallback\]" "$out"
expect_grep "unknown rule: an error" "^mm/loud.c:10:1: error: suppression names 'costly-no-fallbak'.*\[bad-suppression\]" "$out"
expect_grep "unknown rule: not applied" "^mm/loud.c:10:[0-9]+: warning: .*\[costly-no-fallback\]" "$out"
expect_grep "a comment two lines up does not apply" "^mm/loud.c:20:[0-9]+: warning: .*\[costly-no-fallback\]" "$out"

"$G" audit -q --no-cache --format json mm/quiet.c mm/loud.c > "$T/out.json" 2>/dev/null
python3 - "$T/out.json" > "$T/json.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    print("finding", f["file"], f["line"], f["rule"], "suppressed" in f)
for f in d["suppressed"]:
    print("suppressed", f["file"], f["line"], f["rule"], f["suppressed"]["reason"], f["suppressed"]["at"])
PY
j=$(cat "$T/json.txt")
expect_grep "JSON: the suppressed list, with reason and place" "^suppressed mm/quiet.c 6 costly-no-fallback the caller retries with order 0 mm/quiet.c:5$" "$j"
expect_nogrep "JSON: suppressed findings are not in findings" "^finding mm/quiet.c" "$j"
expect_grep "JSON: the unsuppressed ones are" "^finding mm/loud.c 14 costly-no-fallback False" "$j"

"$G" audit -q --no-cache --format sarif mm/quiet.c > "$T/out.sarif" 2>/dev/null
s=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for r in d["runs"][0]["results"]:
    for s in r.get("suppressions", []):
        print(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"], s["kind"], s["justification"])' "$T/out.sarif")
expect_grep "SARIF: suppressions kind inSource with the justification" "^costly-no-fallback 6 inSource the caller retries with order 0$" "$s"
python3 "$here/sarif-validate.py" "$T/out.sarif" 2>"$T/sarif.err"; rc=$?
if [ $rc = 77 ]; then skip "SARIF with suppressions validates" "no python3-jsonschema"
else expect_rc "SARIF with suppressions validates (2.1.0 schema)" 0 $rc "$(cat "$T/sarif.err")"; fi

# .gfpaudit: the nearest one above the files; rules, severity, skip
cat > "$T/tree/.gfpaudit" <<'CFG'
# tree policy
[rules]
disable = bad-suppression , noretry-without-nowarn
[severity]
costly-no-fallback = error
[skip]
path = drivers/staging/
CFG
mkdir -p "$T/elsewhere"
out=$(cd "$T/tree/mm" && "$G" audit -v --no-cache loud.c 2>&1); rc=$?
expect_grep "-v names the configuration and what it sets" \
	"configuration: $T/tree/.gfpaudit; disable bad-suppression,noretry-without-nowarn; severity costly-no-fallback=error; skip drivers/staging/" "$out"
expect_nogrep ".gfpaudit [rules] disable" "bad-suppression\]" "$out"
expect_grep ".gfpaudit [severity]" "^loud.c:14:[0-9]+: error: .*\[costly-no-fallback\]" "$out"
out=$("$G" audit -q --no-cache --enable bad-suppression,costly-no-fallback mm/loud.c 2>&1)
expect_grep "--enable on the command line wins over the file" "\[bad-suppression\]" "$out"
out=$("$G" audit --no-cache drivers mm/quiet.c 2>&1); rc=$?
expect_grep "[skip]: the directory's files are left out, and said so" "1 file left out by the \[skip\] paths of $T/tree/.gfpaudit" "$out"
expect_nogrep "[skip]: nothing reported there" "staging/s.c" "$out"
expect_rc "[skip]: what is left is clean (exit 0)" 0 $rc "$out"
out=$(cd "$T/elsewhere" && "$G" audit -v --no-cache "$T/tree/mm/quiet.c" 2>&1)
expect_grep "found above the file, not the current directory" "configuration: $T/tree/.gfpaudit" "$out"

for bad in "[rules]\nenable = costly-no-fallbak\n:2: unknown rule 'costly-no-fallbak'" \
	   "[severity]\ncostly-no-fallback = loud\n:2: severity is note, warning or error, not 'loud'" \
	   "[colors]\n:1: unknown section [colors]" "disable = x\n:1: 'disable' outside a section" \
	   "[skip]\npath\n:2: expected KEY = VALUE"; do
	printf "${bad%%:*}" > "$T/tree/.gfpaudit"
	want=${bad##*\\n}
	out=$("$G" audit -q --no-cache mm/quiet.c 2>&1); rc=$?
	if [ $rc = 2 ] && grep -qF -- "$T/tree/.gfpaudit$want" <<<"$out"; then ok "bad .gfpaudit ($want): exit 2 naming file and line"
	else fail "bad .gfpaudit ($want): exit 2 naming file and line" "exit $rc: $out"; fi
done

# check --staged and cc read it too
printf '[severity]\ncostly-no-fallback = note\n[skip]\npath = drivers/staging\n' > "$T/tree/.gfpaudit"
git -C "$T/tree" init -q && git -C "$T/tree" -c user.email=t@t -c user.name=t commit -q --allow-empty -m base
git -C "$T/tree" add mm/quiet.c
out=$("$G" check --staged 2>&1); rc=$?
expect_rc "check --staged: suppressed findings do not block (exit 0)" 0 $rc "$out"
git -C "$T/tree" add mm/loud.c
out=$("$G" check --staged --severity note 2>&1); rc=$?
expect_grep "check --staged: .gfpaudit severity applies" "loud.c:14:[0-9]+: note: .*\[costly-no-fallback\]" "$out"
expect_nogrep "check --staged: the suppressed one is not new" "quiet.c:6" "$out"
out=$("$G" check --staged -v 2>&1)
expect_grep "check -v names the configuration" "configuration: $T/tree/.gfpaudit" "$out"
printf '[rules]\ndisable = nope\n' > "$T/tree/.gfpaudit"
out=$("$G" check --staged 2>&1); rc=$?
expect_rc "check --staged with a bad .gfpaudit: exit 2" 2 $rc "$out"
printf '[skip]\npath = drivers/staging\n' > "$T/tree/.gfpaudit"
out=$("$G" cc -Wgfpaudit-error -D__KERNEL__ drivers/staging/s.c 2>&1); rc=$?
expect_rc "cc: a [skip] file is not reported (exit 0 with -Wgfpaudit-error)" 0 $rc "$out"
out=$("$G" cc -Wgfpaudit-error -D__KERNEL__ mm/quiet.c 2>&1); rc=$?
expect_rc "cc: suppressed findings do not count (exit 0 with -Wgfpaudit-error)" 0 $rc "$out"
out=$("$G" cc -Wgfpaudit-error -D__KERNEL__ mm/loud.c 2>&1); rc=$?
expect_rc "cc: the others do (exit 1 with -Wgfpaudit-error)" 1 $rc "$out"
printf '[rules]\ndisable = nope\n' > "$T/tree/.gfpaudit"
out=$("$G" cc -D__KERNEL__ mm/quiet.c 2>&1); rc=$?
expect_rc "cc with a bad .gfpaudit: exit 2" 2 $rc "$out"
finish
