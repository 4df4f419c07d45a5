#!/usr/bin/env bash
# A rule is two files (issue 17): the check under analyzer/checks/ and its
# corpus cases.  The template becomes a rule by being copied: the generated
# registration list (analyzer/checks/gen-list.sh) picks it up by its .rank,
# `gfpaudit rules --format json` lists it, the corpus runner accepts its
# id, and it reports.  Built from the objects in OBJDIR (default
# build/obj) with registry.c recompiled on the new list; nothing in the
# source tree is touched.  Also: the list stops the build on a rule without
# a rank or two rules with one rank.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objdir=${OBJDIR:-$root/build/obj}
if [ ! -f "$objdir/analyzer/checks/registry.o" ]; then
	skip "a rule from the template" "no built objects in $objdir"
	finish
fi

mkdir -p "$tmp/checks" "$tmp/gen" "$tmp/corpus"
cp "$root"/analyzer/checks/*.c "$tmp/checks/"
sed -e 's/check_template/check_demo_rule/' -e 's/"template"/"demo-rule"/' \
	"$root/analyzer/checks/template.c.txt" > "$tmp/checks/demo_rule.c"

out=$("$root/analyzer/checks/gen-list.sh" "$tmp"/checks/*.c 2>&1); rc=$?
expect_rc "gen-list.sh lists the new rule" 0 "$rc" "$out"
check "  last, by its rank (1000)" test "$(printf '%s\n' "$out" | tail -n 1)" = "CHECK(demo_rule)"
check "  after the rules there are" test "$(printf '%s\n' "$out" | grep -c '^CHECK(')" = \
	"$(( $(grep -l '^const struct check check_' "$root"/analyzer/checks/*.c | wc -l) + 1 ))"
printf '%s\n' "$out" > "$tmp/gen/checks.inc"

sed 's/^\t\.rank = 1000,.*/\t.rank = 10,/' "$tmp/checks/demo_rule.c" > "$tmp/dup.c"
out=$("$root/analyzer/checks/gen-list.sh" "$root"/analyzer/checks/*.c "$tmp/dup.c" 2>&1); rc=$?
expect_rc "two rules with one rank stop the list" 1 "$rc" "$out"
expect_grep "  and it says which" "rank 10 is also" "$out"
sed '/^\t\.rank = /d' "$tmp/checks/demo_rule.c" > "$tmp/norank.c"
out=$("$root/analyzer/checks/gen-list.sh" "$tmp/norank.c" 2>&1); rc=$?
expect_rc "a rule without a rank stops the list" 1 "$rc" "$out"
expect_grep "  and it says which" "check_demo_rule has no .rank" "$out"

cflags=$(make -s -C "$root" print-ALL_CFLAGS | sed 's/-Werror//; s/-MMD//; s/-MP//')
ldlibs=$(make -s -C "$root" print-LDLIBS)
san=
nm "$objdir/analyzer/checks/registry.o" 2>/dev/null | grep -q __asan && san="-fsanitize=address,undefined"
objs=$(cd "$objdir" && find analyzer -name '*.o' ! -path analyzer/checks/registry.o | sort | sed "s|^|$objdir/|")
(cd "$root" && cc $cflags $san -I"$tmp/gen" -Ianalyzer/checks -c -o "$tmp/registry.o" analyzer/checks/registry.c &&
	cc $cflags $san -Ianalyzer/checks -c -o "$tmp/demo_rule.o" "$tmp/checks/demo_rule.c" &&
	c++ $san -o "$tmp/gfpaudit" $objs "$tmp/registry.o" "$tmp/demo_rule.o" $ldlibs) > "$tmp/build.log" 2>&1
expect_rc "the template builds into gfpaudit as a rule" 0 $? "$(cat "$tmp/build.log")"
[ -x "$tmp/gfpaudit" ] || finish

out=$(GFPAUDIT_DATADIR=$root "$tmp/gfpaudit" rules --format json 2>&1)
expect_grep "gfpaudit rules lists it" '"id": "demo-rule"' "$out"
expect_grep "  as a rule about sites" '"scope": "site"' "$out"
out=$(GFPAUDIT_DATADIR=$root "$tmp/gfpaudit" audit --help 2>&1)
expect_grep "audit --help lists it" "demo-rule" "$out"

cat > "$tmp/corpus/demo-rule-hit.c" <<'CASE'
#include <linux/gfp.h>

struct page *demo_grab(void)
{
	return alloc_pages(GFP_KERNEL, 5); // warn: costly-no-fallback, demo-rule // site: order=5..5 fallback=none
}
/*
 * check-name: the template rule reports at a costly site
 *
 * check-output-start
 * check-output-end
 */
CASE
(cd "$tmp" && GFPAUDIT_DATADIR=$root python3 "$here/corpus.py" --gfpaudit "$tmp/gfpaudit" --format corpus/demo-rule-hit.c) > "$tmp/fmt.log" 2>&1
out=$(cd "$tmp" && GFPAUDIT_DATADIR=$root python3 "$here/corpus.py" --gfpaudit "$tmp/gfpaudit" corpus/demo-rule-hit.c 2>&1); rc=$?
expect_rc "a corpus case with its id passes" 0 "$rc" "$out$(cat "$tmp/fmt.log")"
expect_grep "  and the rule reported there (its check-output line)" 'demo-rule-hit.c:5:[0-9]+: warning: .*\[demo-rule\]' "$(cat "$tmp/corpus/demo-rule-hit.c")"
out=$(python3 "$here/corpus.py" --gfpaudit "$root/gfpaudit" "$tmp/corpus/demo-rule-hit.c" 2>&1)
expect_grep "the same case is bad for a gfpaudit without the rule" "unknown rule id 'demo-rule'" "$out"
finish
