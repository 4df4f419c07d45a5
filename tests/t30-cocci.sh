#!/usr/bin/env bash
# The Coccinelle rules in rules/*.cocci:
#  (a) report mode over the inputs in tests/cocci/: every "cocci: RULE-ID"
#      marker is reported and nothing else is (every rule runs over every
#      input, so a rule that fires on another rule's case fails too);
#      every mode (report, patch, context, org) runs without a script error;
#      the shared python block in each rule is what rules/sync-common.py
#      cuts from rules/common.py, whose allocator table is
#      analyzer/data/allocators.tbl (tests/rules_tables.py);
#  (b) patch mode: the diff applies (git apply --check), the patched file
#      parses (clang -fsyntax-only against include/kmodel/), and the rule
#      no longer reports what it patched ("nopatch" markers stay);
#  (c) cross-check with the C analyzer over corpus/: rule ids by line must
#      agree except for the rows of the table in rules/README.md, and every
#      row of that table must still disagree;
#  (d) the header constants: gfpaudit audit --cocci hands spatch the ones
#      the C analyzer evaluates (a miniature arm64 tree with 64 KiB pages
#      changes a verdict); the rules' defaults are the C analyzer's.
# Env: GFPAUDIT (binary), SPATCH (default spatch), CORPUS (default corpus/),
# AUDIT_FLAGS (extra gfpaudit audit options for the cross-check, e.g. -p DB),
# KDIR61 (a prepared pre-6.4 tree for (d); default build/linux-6.1),
# CROSS_TABLE (default rules/README.md).  Skips only without spatch (and
# (d)'s real-tree check without that tree); the cross-check fails when the C
# analyzer analyzes no case or none agrees.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rules_dir=$root/rules
inputs=$here/cocci
GFPAUDIT=${GFPAUDIT:-$root/gfpaudit}
SPATCH=${SPATCH:-spatch}
. "$here/lib/assert.sh"

if ! command -v "$SPATCH" >/dev/null 2>&1; then
	echo "spatch (coccinelle) is not installed: skipping the Coccinelle rules (apt-get install coccinelle)"
	skip "t30-cocci: no spatch"
	finish
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rules=$(cd "$rules_dir" && ls *.cocci)
spflags=(--very-quiet --no-includes --include-headers)
# the rule ids the .cocci report under (each file's `RULE = '...'`): every
# one must be a rule the C analyzer has (`gfpaudit rules --format json`)
ids=$(sed -n "s/^RULE = '\(.*\)'\$/\1/p" "$rules_dir"/*.cocci | sort -u | tr '\n' ' ')
ids=${ids% }
known=$("$GFPAUDIT" rules --format json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)["rules"]))')
for id in $ids; do
	case " $known " in
	*" $id "*) ok "rule id $id of the .cocci is one gfpaudit rules lists" ;;
	*) fail "rule id $id of the .cocci is one gfpaudit rules lists" "gfpaudit rules: $known" ;;
	esac
done
check "the .cocci name their rule ids" test -n "$ids"

# --- the shared block and the allocator table (tests/rules_tables.py): each
# rule's python block is the part of rules/common.py rules/sync-common.py
# cuts for it; rules/common.py's table is analyzer/data/allocators.tbl ---
python3 "$here/rules_tables.py" "$root" > "$tmp/tables" 2>&1
while IFS= read -r l; do
	case $l in
	"ok   "*) ok "${l#ok   }" ;;
	"FAIL "*) fail "${l#FAIL }" ;;
	esac
done < "$tmp/tables"
grep -q ' passed, 0 failed$' "$tmp/tables" || fail "tests/rules_tables.py: $(tail -3 "$tmp/tables")"

# --- (a) report mode over every input ---
inputs_c=$(cd "$inputs" && ls *.c)
expected() { # file -> "file:line:rule" lines from the markers
	awk -v f="$1" 'match($0, /cocci: [a-z -]+/) { n = split(substr($0, RSTART + 7, RLENGTH - 7), ids, " ");
		for (i = 1; i <= n; i++) if (ids[i] != "ok" && ids[i] != "nopatch") print f ":" FNR ":" ids[i] }' "$inputs/$1"
}
: > "$tmp/want"
for f in $inputs_c; do
	expected "$f" >> "$tmp/want"
	for id in $(grep -o 'cocci: [a-z -]*' "$inputs/$f" | cut -c8- | tr ' ' '\n' | sort -u); do
		case " ok nopatch $ids " in
		*" $id "*) ;;
		*) fail "$f: unknown marker 'cocci: $id'" ;;
		esac
	done
done
: > "$tmp/got"
for r in $rules; do
	(cd "$inputs" && "$SPATCH" -D report --no-show-diff "${spflags[@]}" --cocci-file "$rules_dir/$r" $inputs_c) \
		> "$tmp/$r.report" 2> "$tmp/$r.err"
	rc=$?
	if [ $rc != 0 ] || grep -qE 'Traceback|Python failure|parse error' "$tmp/$r.err"; then
		fail "$r: report mode failed (exit $rc): $(head -c 300 "$tmp/$r.err")"
	fi
	sed -nE 's/^([^:]+):([0-9]+):[0-9]+-[0-9]+: .*\[([a-z-]+)\]$/\1:\2:\3/p' "$tmp/$r.report" >> "$tmp/got"
done
sort -u -o "$tmp/want" "$tmp/want"
sort -u -o "$tmp/got" "$tmp/got"
while IFS= read -r w; do
	if grep -qxF "$w" "$tmp/got"; then ok "reported $w"; else fail "not reported: $w"; fi
done < "$tmp/want"
while IFS= read -r g; do
	grep -qxF "$g" "$tmp/want" || fail "reported without a marker: $g"
done < "$tmp/got"

# the gfpaudit mode: the same findings as JSON lines with their facts
for r in $rules; do
	(cd "$inputs" && "$SPATCH" -D gfpaudit --no-show-diff "${spflags[@]}" --cocci-file "$rules_dir/$r" $inputs_c) \
		> "$tmp/out" 2> "$tmp/err"
	if python3 -c '
import json, sys
rep = set()
for l in open(sys.argv[2]):
    f, line = l.split(":")[:2]
    rep.add((f, int(line)))
got = set()
for l in open(sys.argv[1]):
    assert l.startswith("gfpaudit-cocci: "), l
    d = json.loads(l[len("gfpaudit-cocci: "):])
    assert d["api"] and d["function"] and d["rule"] and d["message"] and d["column"] >= 1, d
    got.add((d["file"], d["line"]))
assert got == rep, (sorted(got ^ rep))
' "$tmp/out" "$tmp/$r.report" 2> "$tmp/py"; then
		ok "$r: gfpaudit mode prints the report findings as JSON with api and function"
	else
		fail "$r: gfpaudit mode: $(tail -1 "$tmp/py") $(head -c 200 "$tmp/err")"
	fi
done

# context and org modes in one run: the "*" lines and the TODO lines
for r in $rules; do
	(cd "$inputs" && "$SPATCH" -D context -D org "${spflags[@]}" --cocci-file "$rules_dir/$r" $inputs_c) \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	nctx=$(grep -c '^-[^-]' "$tmp/out")
	norg=$(grep -c '^\* TODO' "$tmp/out")
	want=$(grep -c . "$tmp/$r.report")
	if [ $rc != 0 ] || grep -qE 'Traceback|Python failure|parse error' "$tmp/err"; then
		fail "$r: context/org mode failed (exit $rc): $(head -c 300 "$tmp/err")"
	elif [ "$nctx" -lt "$want" ] || [ "$norg" != "$want" ]; then
		fail "$r: context mode marks $nctx lines, org mode $norg, report mode found $want"
	else
		ok "$r: context and org modes mark the $want findings"
	fi
done

# --- gfpaudit audit --cocci: the same findings, GCC style, one per line and rule ---
if [ -x "$GFPAUDIT" ]; then
	(cd "$inputs" && "$GFPAUDIT" audit --cocci --severity note -q -j 2 $inputs_c) > "$tmp/audit" 2> "$tmp/audit.err"
	rc=$?
	# the libclang engine runs too: only the ids the rules have are compared
	sed -nE 's/^([^:]+):([0-9]+):[0-9]+: (warning|error|note): .*\[([a-z-]+)\]$/\1:\2:\4/p' "$tmp/audit" |
		grep -E ":($(echo $ids | tr ' ' '|'))\$" | sort > "$tmp/audit.ids"
	if [ $rc = 1 ] && cmp -s "$tmp/audit.ids" "$tmp/want"; then
		ok "gfpaudit audit --cocci reports exactly the markers (exit 1)"
	else
		fail "gfpaudit audit --cocci (exit $rc): $(diff "$tmp/want" "$tmp/audit.ids" | head -5 | tr '\n' ' ') $(head -c 200 "$tmp/audit.err")"
	fi
	if [ "$(wc -l < "$tmp/audit.ids")" = "$(sort -u "$tmp/audit.ids" | wc -l)" ]; then
		ok "gfpaudit audit --cocci: no duplicate (file, line, rule)"
	else
		fail "gfpaudit audit --cocci printed duplicates"
	fi
	# the prefilter's answers spare spatch too: a file naming no API is not given to it
	mkdir -p "$tmp/pf"
	cp "$inputs"/*.c "$tmp/pf/"
	printf '#include <linux/kernel.h>\nint add(int a, int b)\n{\n\treturn a + b;\n}\n' > "$tmp/pf/noalloc.c"
	(cd "$tmp/pf" && "$GFPAUDIT" audit --cocci --prefilter --severity note --no-cache -v -j 2 *.c) > "$tmp/pf.out" 2> "$tmp/pf.err"
	n=$(echo $inputs_c | wc -w)
	if grep -q "spatch over $n of $((n + 1)) files" "$tmp/pf.err" &&
	   [ "$(grep -c '\[' "$tmp/pf.out")" -ge "$(grep -c . "$tmp/want")" ]; then
		ok "gfpaudit audit --cocci --prefilter: spatch skips the prefiltered file"
	else
		fail "gfpaudit audit --cocci --prefilter: $(grep -- '--cocci' "$tmp/pf.err" | tail -1)"
	fi
	(cd "$inputs" && "$GFPAUDIT" audit --cocci --cocci-rules "$tmp/none" -q kmalloc_large.c) > /dev/null 2> "$tmp/audit.err"
	rc=$?
	if [ $rc = 3 ] && grep -q 'rules' "$tmp/audit.err"; then
		ok "gfpaudit audit --cocci-rules with a missing directory: exit 3"
	else
		fail "gfpaudit audit --cocci-rules with a missing directory: exit $rc"
	fi
	# both engines find these lines: one finding a line, and as many as the
	# union of what each engine finds alone
	(cd "$inputs" && "$GFPAUDIT" audit --enable costly-no-noretry --format json -q costly_noretry.c) \
		> "$tmp/alone.json" 2>/dev/null
	(cd "$inputs" && "$GFPAUDIT" audit --cocci --enable costly-no-noretry --format json -q costly_noretry.c) \
		> "$tmp/audit.json" 2>/dev/null
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
alone = set(x["line"] for x in json.load(open(sys.argv[2]))["findings"] if x["rule"] == "costly-no-noretry")
cocci = set(int(l.split(":")[1]) for l in open(sys.argv[3]) if l.startswith("costly_noretry.c:") and l.strip().endswith(":costly-no-noretry"))
f = [x for x in d["findings"] if x["rule"] == "costly-no-noretry"]
lines = [x["line"] for x in f]
assert len(lines) == len(set(lines)), "duplicates: %s" % lines
assert set(lines) == alone | cocci, (sorted(lines), sorted(alone), sorted(cocci))
assert all(x["source"] in ("clang", "cocci") for x in f)
assert all(x["source"] == "cocci" for x in f if x["line"] not in alone)
' "$tmp/audit.json" "$tmp/alone.json" "$tmp/want" 2> "$tmp/py"; then
		ok "gfpaudit audit --cocci --format json: the union of both engines, once a line"
	else
		fail "gfpaudit audit --cocci --format json: $(tail -1 "$tmp/py")"
	fi
else
	fail "gfpaudit audit --cocci: $GFPAUDIT is not built"
fi

# --- (d) the header constants: gfpaudit audit --cocci hands the rules the
# ones the C analyzer evaluates (GFPAUDIT_COCCI_CONSTANTS); without it the
# rules judge with their x86-64 defaults, which are the C analyzer's ---
if [ -x "$GFPAUDIT" ]; then
	consts_of() { sed -n 's/^gfpaudit: --cocci: GFPAUDIT_COCCI_CONSTANTS="\(.*\)"$/\1/p' "$1"; }
	(cd "$inputs" && env -u GFPAUDIT_COCCI_CONSTANTS "$GFPAUDIT" audit --cocci --cocci-rules "$rules_dir" -v --no-cache -j 1 \
		kmalloc_large.c) \
		> /dev/null 2> "$tmp/k.err"
	kc=$(consts_of "$tmp/k.err")
	if [ -n "$kc" ] && env -u GFPAUDIT_COCCI_CONSTANTS python3 -c '
import sys
ns = {}
exec(open(sys.argv[1]).read().split("\nclass Call:")[0], ns)
bad = [w for w in sys.argv[2].split() if ns["_known"][w.split("=")[0]] != int(w.split("=")[1])]
assert not bad, "rules/common.py defaults differ: %s" % bad
' "$rules_dir/common.py" "$kc" 2> "$tmp/py"; then
		ok "constants: the C analyzer's for the model headers are the rules' defaults ($kc)"
	else
		fail "constants: model headers: '$kc' $(tail -1 "$tmp/py" 2>/dev/null) $(head -c 300 "$tmp/k.err")"
	fi
	. "$here/lib/minitree.sh"
	for s in 12 16; do
		T=$tmp/arm64-$s
		mini_tree "$T" arm64 $s
		arm64_makefile "$T"
		printf '#include <linux/gfp.h>\n#define alloc_pages(...) alloc_pages_noprof(__VA_ARGS__)\n' > "$T/drivers/mini.h"
		# 64 KiB: order 4 with 4 KiB pages, order 0 with 64 KiB pages
		printf '#include "mini.h"\nstruct page *ring(void)\n{\n\treturn alloc_pages(GFP_KERNEL, get_order(65536));\n}\n' \
			> "$T/drivers/ring.c"
		# a stale value in the environment: the tree's replaces it
		GFPAUDIT_DEBUG=1 GFPAUDIT_COCCI_CONSTANTS=PAGE_SHIFT=$((28 - s)) XDG_CACHE_HOME=$tmp/xdg \
			"$GFPAUDIT" audit --cocci --cocci-rules "$rules_dir" -v --no-cache --format json -j 1 \
			--tree "$T" "$T/drivers/ring.c" \
			> "$tmp/t$s.json" 2> "$tmp/t$s.err"
		c=$(consts_of "$tmp/t$s.err")
		# every constant the C analyzer's probe found has the value handed to spatch
		bad=$(grep -E '^debug: [A-Z_]+ = -?[0-9]+ \(found\)$' "$tmp/t$s.err" | sort -u |
			while read -r _ n _ v _; do
				case " $c " in *" $n="*) case " $c " in *" $n=$v "*) ;; *) echo "$n=$v";; esac;; esac
			done)
		if [ -n "$c" ] && [ -z "$bad" ] && [ "${c#PAGE_SHIFT=$s }" != "$c" ]; then
			ok "constants: arm64 PAGE_SHIFT $s: spatch gets what the C analyzer probed ($c)"
		else
			fail "constants: arm64 PAGE_SHIFT $s: handed '$c', the C analyzer found: $bad" "$(grep -v '^debug' "$tmp/t$s.err" | head -5)"
		fi
		got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted("%s:%s" % (f["line"], f["rule"]) for f in d["findings"])))' "$tmp/t$s.json" 2>&1)
		# the rules alone with their defaults find the 64 KiB allocation
		# costly in both trees; given PAGE_SHIFT=16 they do not
		(cd "$T/drivers" && env -u GFPAUDIT_COCCI_CONSTANTS "$SPATCH" -D report --no-show-diff "${spflags[@]}" \
			--cocci-file "$rules_dir/costly_no_fallback.cocci" ring.c) > "$tmp/d$s" 2>&1
		(cd "$T/drivers" && GFPAUDIT_COCCI_CONSTANTS="PAGE_SHIFT=$s" "$SPATCH" -D report --no-show-diff "${spflags[@]}" \
			--cocci-file "$rules_dir/costly_no_fallback.cocci" ring.c) > "$tmp/e$s" 2>&1
		if [ $s = 12 ]; then
			expect_grep "constants: 4K pages: gfpaudit audit --cocci finds the order-4 allocation" \
				"^4:costly-no-fallback$" "$got"
			expect_grep "constants: the rules alone, GFPAUDIT_COCCI_CONSTANTS=PAGE_SHIFT=12: order 4" \
				"ring.c:4:.*\[costly-no-fallback\]" "$(cat "$tmp/e$s")"
		else
			if [ -z "$got" ]; then
				ok "constants: 64K pages: order 0, neither engine reports it (the rules were handed PAGE_SHIFT=16)"
			else
				fail "constants: 64K pages: gfpaudit audit --cocci reports '$got'"
			fi
			if [ ! -s "$tmp/e$s" ]; then
				ok "constants: the rules alone, GFPAUDIT_COCCI_CONSTANTS=PAGE_SHIFT=16: order 0, nothing to report"
			else
				fail "constants: the rules alone, GFPAUDIT_COCCI_CONSTANTS=PAGE_SHIFT=16" "$(cat "$tmp/e$s")"
			fi
		fi
		expect_grep "constants: the rules alone, x86-64 defaults, on the PAGE_SHIFT $s tree: order 4" \
			"ring.c:4:.*order-4 .*\[costly-no-fallback\]" "$(cat "$tmp/d$s")"
	done
	# a real prepared tree from before 6.4 (MAX_ORDER exclusive, 11): the
	# values the C analyzer evaluates in one of its files, MAX_ORDER
	# among them (spatch stands in: only the constants are compared)
	K61=${KDIR61:-$root/build/linux-6.1}
	if [ -f "$K61/mm/dmapool.c" ] && [ -f "$K61/include/generated/autoconf.h" ]; then
		GFPAUDIT_DEBUG=1 SPATCH=true XDG_CACHE_HOME=$tmp/xdg "$GFPAUDIT" audit --cocci --cocci-rules "$rules_dir" \
			-v --no-cache -j 1 --tree "$K61" "$K61/mm/dmapool.c" > /dev/null 2> "$tmp/k61.err"
		c=$(consts_of "$tmp/k61.err")
		found=$(sed -nE 's/^debug: (PAGE_SHIFT|PAGE_ALLOC_COSTLY_ORDER|MAX_ORDER|KMALLOC_MAX_CACHE_SIZE|HPAGE_PMD_ORDER) = (-?[0-9]+) \(found\)$/\1=\2/p' \
			"$tmp/k61.err" | sort -u)
		miss=$(for w in $found; do case " $c " in *" $w "*) ;; *) echo "$w";; esac; done)
		if [ -n "$c" ] && [ -z "$miss" ] && [ "$(echo "$found" | grep -c .)" = 5 ] &&
		   [ "${c#* MAX_PAGE_ORDER=10 }" != "$c" ]; then
			ok "constants: ${K61#$root/}: spatch gets what the C analyzer evaluates ($c)"
		else
			fail "constants: ${K61#$root/}: handed '$c'; the C analyzer found: $(echo $found)" "$(grep -v '^debug' "$tmp/k61.err" | head -5)"
		fi
	else
		skip "constants: a real pre-6.4 tree" "no prepared $K61"
	fi
fi

# --- (b) patch mode ---
kinc=$root/include/kmodel
cflags=(-fsyntax-only -std=gnu11 -Wall -Wno-unused-function -Wno-unused-variable
	-Werror=implicit-function-declaration -Werror=incompatible-pointer-types -nostdinc -I "$kinc")
for f in $inputs_c; do
	if clang "${cflags[@]}" "$inputs/$f" 2> "$tmp/cc"; then ok "$f parses (headers: ${kinc#$root/})"
	else fail "$f does not parse: $(head -c 400 "$tmp/cc")"; fi
done
for r in $rules; do
	base=${r%.cocci}
	tree=$tmp/tree-$base
	mkdir -p "$tree/tests/cocci"
	cp "$inputs"/*.c "$tree/tests/cocci/"
	(cd "$tree" && git init -q . && "$SPATCH" -D patch "${spflags[@]}" --patch . --cocci-file "$rules_dir/$r" \
		$(printf 'tests/cocci/%s ' $inputs_c)) > "$tmp/$base.diff" 2> "$tmp/err"
	if grep -qE 'Traceback|Python failure|parse error' "$tmp/err"; then
		fail "$r: patch mode failed: $(head -c 300 "$tmp/err")"
		continue
	fi
	if ! grep -q '^+++ ' "$tmp/$base.diff"; then
		if grep -q 'depends on patch' "$rules_dir/$r"; then
			fail "$r: patch mode produced no diff"
		else
			ok "$r: report-only rule, patch mode produced no diff"
		fi
		continue
	fi
	if (cd "$tree" && git apply --check "$tmp/$base.diff" 2> "$tmp/err"); then
		ok "$r: diff applies (git apply --check)"
	else
		fail "$r: diff does not apply: $(head -c 300 "$tmp/err")"
		continue
	fi
	(cd "$tree" && git apply "$tmp/$base.diff")
	for f in $(sed -n 's|^+++ b/||p' "$tmp/$base.diff"); do
		if clang "${cflags[@]}" "$tree/$f" 2> "$tmp/cc"; then ok "$r: patched $f parses"
		else fail "$r: patched $f does not parse: $(head -c 400 "$tmp/cc")"; fi
	done
	# after the patch only the findings marked "nopatch" may remain
	keep=0
	while IFS=: read -r f l rest; do
		sed -n "${l}p" "$inputs/$f" | grep -q 'cocci: [a-z -]* nopatch' && keep=$((keep + 1))
	done < "$tmp/$r.report"
	# a spatch that fails on the patched files reports nothing: not a pass
	(cd "$tree/tests/cocci" && "$SPATCH" -D report --no-show-diff "${spflags[@]}" \
		--cocci-file "$rules_dir/$r" $inputs_c) > "$tmp/left" 2> "$tmp/err"
	rc=$?
	left=$(grep -c . "$tmp/left")
	before=$(grep -c . "$tmp/$r.report")
	if [ $rc != 0 ] || grep -qE 'Traceback|Python failure|parse error' "$tmp/err"; then
		fail "$r: report mode on the patched files failed (exit $rc): $(head -c 300 "$tmp/err")"
	elif [ "$left" = "$keep" ]; then
		ok "$r: after the patch $left of $before findings remain (the nopatch cases)"
	else
		fail "$r: after the patch $left of $before findings remain, expected $keep (nopatch markers)"
	fi
done

# --- (c) cross-check with the C analyzer over corpus/ ---
corpus=${CORPUS:-$root/corpus}
table_file=${CROSS_TABLE:-$rules_dir/README.md}
if ! ls "$corpus"/*.c >/dev/null 2>&1; then
	fail "cross-check: no cases in $corpus"
	finish
fi
if [ ! -x "$GFPAUDIT" ]; then
	fail "cross-check: $GFPAUDIT is not built"
	finish
fi
cases=$(cd "$corpus" && ls *.c)
: > "$tmp/clang"
# one run over every case (its workers parse in parallel); cases it could not
# analyze are listed under "problems" and are not compared
(cd "$corpus" && "$GFPAUDIT" audit --format json -q -j 2 ${AUDIT_FLAGS:-} $cases) > "$tmp/j" 2>/dev/null
python3 - "$tmp/j" "$ids" "$cases" >> "$tmp/clang" <<'EOF'
import json, os, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    d = {"findings": [], "problems": [], "files": {"analyzed": 0}}
cases = sys.argv[3].split()
bad = set(os.path.basename(p.get("file", "")) for p in d.get("problems", []))
if d.get("files", {}).get("analyzed", 0) < 1:
    bad = set(cases)
for c in sorted(bad):
    print("#skipped", c)
for f in d.get("findings", []):
    if f["rule"] in sys.argv[2].split():
        print("%s:%d:%s" % (os.path.basename(f["file"]), f["line"], f["rule"]))
EOF
nskipped=$(grep -c '^#skipped' "$tmp/clang")
if [ "$nskipped" = "$(echo $cases | wc -w)" ]; then
	fail "cross-check: the C analyzer analyzed none of the corpus cases"
	finish
fi
grep -v '^#' "$tmp/clang" | sort -u > "$tmp/clang.ids"
: > "$tmp/cocci.ids"
for r in $rules; do
	(cd "$corpus" && "$SPATCH" -D report --no-show-diff "${spflags[@]}" --cocci-file "$rules_dir/$r" $cases) 2>/dev/null |
		sed -nE 's/^([^:]+):([0-9]+):[0-9]+-[0-9]+: .*\[([a-z-]+)\]$/\1:\2:\3/p' >> "$tmp/cocci.ids"
done
# cases the C analyzer skipped or failed on are not compared
for s in $(sed -n 's/^#skipped //p' "$tmp/clang"); do
	echo "note: $s: the C analyzer did not analyze it; not compared"
	grep -v "^$s:" "$tmp/cocci.ids" > "$tmp/x"; mv "$tmp/x" "$tmp/cocci.ids"
done
sort -u -o "$tmp/cocci.ids" "$tmp/cocci.ids"
comm -23 "$tmp/clang.ids" "$tmp/cocci.ids" | sed 's/$/:clang-only/' > "$tmp/disagree"
comm -13 "$tmp/clang.ids" "$tmp/cocci.ids" | sed 's/$/:cocci-only/' >> "$tmp/disagree"
# the table: | case | line | rule | found by | reason |
sed -n '/<!-- cross-check table begin -->/,/<!-- cross-check table end -->/p' "$table_file" |
	awk -F'|' 'NF >= 6 && $2 ~ /\.c/ { gsub(/[ `]/, "", $2); gsub(/ /, "", $3); gsub(/[ `]/, "", $4); gsub(/ /, "", $5);
		print $2 ":" $3 ":" $4 ":" $5 }' | sort -u > "$tmp/table"
agree=$(comm -12 "$tmp/clang.ids" "$tmp/cocci.ids" | wc -l)
if [ "$agree" -gt 0 ]; then ok "cross-check: $agree findings agree over $(echo $cases | wc -w) corpus cases"
else fail "cross-check: no finding of the C analyzer and the rules agrees over the corpus"; fi
while IFS= read -r d; do
	if grep -qxF "$d" "$tmp/table"; then ok "cross-check: known disagreement $d"
	else fail "cross-check: disagreement not in the table of ${table_file#$root/}: $d"; fi
done < "$tmp/disagree"
while IFS= read -r t; do
	grep -qxF "$t" "$tmp/disagree" || fail "cross-check: table row no longer disagrees (remove it): $t"
done < "$tmp/table"
finish
