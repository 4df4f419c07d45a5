#!/usr/bin/env bash
# t89-diag: diagnostics people read (issue 19 item 4): headlines under 100
# characters with the details as notes and gfp sets as GFP_KERNEL | ...,
# -v evidence labelled (store, guard, call, caller) in line order, --sites
# in the same notation, --color=auto|always|never and NO_COLOR (audit,
# check, explain, merge), paths relative to the current directory when it is a
# subdirectory of the tree (check from a subdirectory; audit --tree inside
# KDIR when there is one), --progress lines on a stderr that is not a
# terminal (the default under CI=true; audit and facts), the per-rule count
# table.  Ends with
# "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
. "$here/lib/assert.sh"
T=$(mktemp -d /tmp/gfpaudit-t89.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/cache
unset NO_COLOR CI
esc=$'\033'

mkdir -p "$T/repo/drivers/foo"
cat > "$T/repo/drivers/foo/big.c" <<'C'
#include <linux/gfp.h>
#include <linux/slab.h>
void *big(void)
{
	return kmalloc(1 << 20, GFP_KERNEL);
}
void *bigger(void)
{
	return kmalloc(1 << 21, GFP_KERNEL | __GFP_NOFAIL);
}
C
cd "$T/repo"
out=$("$G" audit -q --no-cache --color=always drivers/foo/big.c 2>/dev/null)
expect_grep "--color=always: GCC's colours (warning magenta, locus bold)" "^${esc}\[01mdrivers/foo/big.c:5:[0-9]+:${esc}\[m ${esc}\[01;35mwarning:" "$out"
expect_grep "--color=always: error red" "${esc}\[01;31merror:${esc}\[m" "$out"
out=$("$G" audit -q --no-cache --color=never drivers/foo/big.c 2>/dev/null)
expect_nogrep "--color=never: no escape" "$esc" "$out"
out=$("$G" audit -q --no-cache drivers/foo/big.c 2>/dev/null)
expect_nogrep "--color=auto into a pipe: no escape" "$esc" "$out"
expect_grep "--color=auto into a pipe: the plain line" "^drivers/foo/big.c:5:[0-9]+: warning: .*\[costly-no-fallback\]$" "$out"
"$G" audit -q --no-cache --color=sometimes drivers/foo/big.c >/dev/null 2>&1; expect_rc "--color=sometimes: usage" 2 $?
if command -v script >/dev/null; then
	out=$(TERM=xterm script -qec "$G audit -q --no-cache drivers/foo/big.c" /dev/null 2>&1)
	expect_grep "--color=auto on a terminal: colours" "${esc}\[01;35mwarning:" "$out"
	out=$(NO_COLOR=1 TERM=xterm script -qec "$G audit -q --no-cache drivers/foo/big.c" /dev/null 2>&1)
	expect_nogrep "--color=auto on a terminal with NO_COLOR: none" "${esc}\[01" "$out"
	out=$(NO_COLOR=1 TERM=xterm script -qec "$G audit -q --no-cache --color=always drivers/foo/big.c" /dev/null 2>&1)
	expect_grep "--color=always wins over NO_COLOR" "${esc}\[01;35mwarning:" "$out"
else
	skip "--color=auto on a terminal" "no script(1)"
fi

# headline and notes; gfp sets as kernel code writes them
out=$("$G" audit -q --no-cache --severity note drivers/foo/big.c 2>/dev/null)
expect_grep "headline: what, how big, what is wrong" "^drivers/foo/big.c:5:[0-9]+: warning: 'kmalloc' can request order 8 \(1 MiB\): no fallback \[costly-no-fallback\]$" "$out"
expect_grep "details as notes at the same place: the mask as GFP_KERNEL" "^drivers/foo/big.c:5:[0-9]+: note: gfp GFP_KERNEL$" "$out"
expect_grep "details: the fallback" "^drivers/foo/big.c:5:[0-9]+: note: fallback none: " "$out"
expect_grep "details: GFP_KERNEL | __GFP_NOFAIL" "^drivers/foo/big.c:9:[0-9]+: note: gfp GFP_KERNEL \| __GFP_NOFAIL$" "$out"
long=$("$G" audit -q --no-cache --severity note "$here"/../corpus/*.c 2>/dev/null |
	grep -E "^[^ ]+:[0-9]+:[0-9]+: (warning|error|note): .*\[[a-z-]+\]$" | sed -E 's/^[^ ]+:[0-9]+:[0-9]+: [a-z]+: //' | awk 'length($0) >= 100')
n=$("$G" audit -q --no-cache --severity note "$here"/../corpus/*.c 2>/dev/null | grep -cE "\[[a-z-]+\]$")
if [ -z "$long" ] && [ "$n" -gt 50 ]; then ok "every headline of the corpus ($n) is under 100 characters"
else fail "every headline of the corpus ($n) is under 100 characters" "$long"; fi

# -v: the evidence as notes in line order, each labelled by what the line
# does (store, guard, call; caller for a caller's lines)
cat > "$T/repo/drivers/foo/guard.c" <<'C'
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/sizes.h>
void *sized(unsigned int n)
{
	size_t len = (size_t)n * 4096;
	if (len > SZ_1M)
		return NULL;
	return kmalloc(len, GFP_KERNEL | __GFP_NORETRY);
}
C
out=$("$G" audit -q -v --no-cache --severity note --disable noretry-without-nowarn drivers/foo/guard.c 2>/dev/null)
ev=$(printf '%s\n' "$out" | grep -E '^drivers/foo/guard.c:[0-9]+: note: ')
want=$(cat <<'W'
drivers/foo/guard.c:6: note: store (size): size_t len = (size_t)n * 4096;
drivers/foo/guard.c:7: note: guard (size): if (len > SZ_1M)
drivers/foo/guard.c:9: note: call: gfp 'GFP_KERNEL | __GFP_NORETRY', size 'len'
W
)
[ "$ev" = "$want" ] && ok "-v: store, guard and call notes in line order" || fail "-v: store, guard and call notes in line order" "$ev"
out=$("$G" audit -q -v --no-cache --severity note "$here/../corpus/fallback-caller-smaller.c" 2>/dev/null)
expect_grep "-v: a caller's store is labelled 'caller store'" ":38: note: caller store \(order\): unit = 1;$" "$out"
expect_grep "-v: the caller that copes is labelled 'caller'" ":38: note: caller: grab_blocks returns the failure, and its caller retries smaller" "$out"
lines=$(printf '%s\n' "$out" | sed -nE 's/^[^ ]+:([0-9]+): note: .*/\1/p' | tr '\n' ' ')
[ "$lines" = "$(printf '%s\n' $lines | sort -n | tr '\n' ' ')" ] && ok "-v: the evidence lines ascend ($lines)" ||
	fail "-v: the evidence lines ascend" "$lines"

# --sites: the masks as kernel code writes them, names as given
out=$("$G" audit -q --no-cache --sites drivers/foo/guard.c 2>/dev/null)
expect_grep "--sites: GFP_KERNEL | __GFP_NORETRY, not must=/may=" "^drivers/foo/guard.c:9:9: site: 'kmalloc' in 'sized': orders 0..8, size 0..1048576, gfp GFP_KERNEL \| __GFP_NORETRY, fallback none$" "$out"
out=$(cd drivers && "$G" audit -q --no-cache --sites foo/guard.c 2>/dev/null)
expect_grep "--sites from drivers/: the name as given" "^foo/guard.c:9:9: site: " "$out"
out=$(cd drivers && "$G" audit -q --no-cache --sites "$T/repo/drivers/foo/guard.c" 2>/dev/null)
expect_grep "--sites with an absolute name: as given" "^$T/repo/drivers/foo/guard.c:9:9: site: " "$out"
out=$("$G" audit -q --no-cache --sites --color=always drivers/foo/guard.c 2>/dev/null)
expect_grep "--sites --color=always: the site line is coloured too" "${esc}\[01;32msite:" "$out"
out=$("$G" audit -q --no-cache --sites "$here/../corpus/attempt-switch.c" 2>/dev/null)
expect_grep "--sites: attempt classes with 'never'" "attempts: orders 4..6 fallback: gfp GFP_NOWAIT \| __GFP_IO \| __GFP_FS \| __GFP_NOWARN, never __GFP_DIRECT_RECLAIM \| __GFP_NORETRY; " "$out"
expect_nogrep "--sites: no must=/may= left" "must=|may=" "$out"

# --color on the other commands that print findings: explain, merge --format
# text (cc's --gfpaudit-color is in t45; review prints mails, JSON and b4's
# status lines, which are not coloured)
out=$("$G" explain --color=always drivers/foo/big.c:5 2>/dev/null)
expect_grep "explain --color=always: the locus bold" "^${esc}\[01mdrivers/foo/big.c:5:[0-9]+:${esc}\[m '${esc}\[01mkmalloc${esc}\[m' in big\(\)" "$out"
out=$("$G" explain drivers/foo/big.c:5 2>/dev/null)
expect_nogrep "explain into a pipe: no escape" "$esc" "$out"
out=$(cd drivers && "$G" explain --color=never foo/big.c:5 2>/dev/null)
expect_grep "explain: the name as given" "^foo/big.c:5:[0-9]+: 'kmalloc' in big\(\)$" "$out"
"$G" explain --color=sometimes drivers/foo/big.c:5 >/dev/null 2>&1; expect_rc "explain --color=sometimes: usage" 2 $?
"$G" audit -q --no-cache --format json drivers/foo/big.c > "$T/run.json" 2>/dev/null
out=$("$G" merge -q --format text --color=always "$T/run.json" 2>/dev/null)
expect_grep "merge --format text --color=always" "^${esc}\[01mdrivers/foo/big.c:5:[0-9]+:${esc}\[m ${esc}\[01;35mwarning:" "$out"
out=$("$G" merge -q --format text "$T/run.json" 2>/dev/null)
expect_nogrep "merge --format text into a pipe: no escape" "$esc" "$out"
"$G" merge --color=sometimes "$T/run.json" >/dev/null 2>&1; expect_rc "merge --color=sometimes: usage" 2 $?

# the per-rule table, on stderr after the summary
err=$("$G" audit --no-cache drivers/foo/big.c 2>&1 >/dev/null)
expect_grep "per-rule table: heading" "^gfpaudit: findings by rule \(at or above warning\):$" "$err"
expect_grep "per-rule table: costly-no-fallback 2" "^ +2  costly-no-fallback$" "$err"
expect_grep "per-rule table: nofail-high-order 1" "^ +1  nofail-high-order$" "$err"
err=$("$G" audit -q --no-cache drivers/foo/big.c 2>&1 >/dev/null)
expect_nogrep "per-rule table: not with -q" "findings by rule" "$err"

# check from a subdirectory: names relative to it, so quickfix finds them
git init -q . && git -c user.email=t@t -c user.name=t commit -q --allow-empty -m base
git add drivers/foo/big.c
out=$(cd drivers/foo && "$G" check --staged 2>/dev/null)
expect_grep "check from drivers/foo: 'big.c:5:...'" "^big.c:5:[0-9]+: warning: .*\[costly-no-fallback\]" "$out"
mkdir -p "$T/repo/drivers/bar"
out=$(cd drivers/bar && "$G" check --staged 2>/dev/null)
expect_grep "check from drivers/bar: '../foo/big.c:5:...'" "^\.\./foo/big.c:5:[0-9]+: warning: " "$out"
out=$("$G" check --staged 2>/dev/null)
expect_grep "check from the top: as before" "^drivers/foo/big.c:5:[0-9]+: warning: " "$out"
out=$("$G" check --staged --color=always 2>/dev/null)
expect_grep "check --color=always" "${esc}\[01;35mwarning:" "$out"
if [ -f "${KDIR:-}/include/generated/autoconf.h" ]; then
	out=$(cd "$KDIR/mm" && "$G" audit -q --no-cache --no-pch --severity note --tree .. readahead.c 2>/dev/null)
	expect_grep "audit --tree .. from KDIR/mm: 'readahead.c:...'" "^readahead.c:[0-9]+:[0-9]+: (note|warning): " "$out"
	out=$(cd "$KDIR/mm" && "$G" audit -q --no-cache --no-pch --sites --tree .. readahead.c 2>/dev/null)
	expect_grep "audit --sites --tree .. from KDIR/mm: 'readahead.c:...: site:'" "^readahead.c:[0-9]+:[0-9]+: site: '" "$out"
	expect_nogrep "audit --sites --tree .. from KDIR/mm: no tree-root names" "^mm/readahead.c" "$out"
	out=$(cd "$KDIR/mm" && "$G" audit -q --no-cache --no-pch --severity note --format json --tree .. readahead.c 2>/dev/null)
	expect_grep "JSON keeps the tree-relative name" '"file": "mm/readahead.c"' "$out"
else
	skip "audit --tree from a subdirectory" "no prepared tree in KDIR"
fi

# progress lines when stderr is a file: only for runs of 5 s and more
err=$(GFPAUDIT_TEST_HANG=big.c "$G" audit --no-cache --progress --timeout 7 -j1 drivers/foo/big.c 2>&1 >/dev/null)
expect_grep "--progress: a line on a stderr that is no terminal" "^gfpaudit: progress \[0/1\]" "$err"
err=$(CI=true GFPAUDIT_TEST_HANG=big.c "$G" audit --no-cache --timeout 7 -j1 drivers/foo/big.c 2>&1 >/dev/null)
expect_grep "CI=true: progress lines by default" "^gfpaudit: progress \[0/1\]" "$err"
err=$(CI=true GFPAUDIT_TEST_HANG=big.c "$G" audit --no-cache --no-progress --timeout 7 -j1 drivers/foo/big.c 2>&1 >/dev/null)
expect_nogrep "CI=true --no-progress: none" "progress" "$err"
err=$(GFPAUDIT_TEST_HANG=big.c "$G" facts --cache "$T/facts.sqlite" --progress --timeout 7 -j1 drivers/foo/big.c 2>&1 >/dev/null)
expect_grep "facts --progress: a line on a stderr that is no terminal" "^gfpaudit: progress \[0/1\]" "$err"
expect_nogrep "--progress lines: no terminal escapes" "$esc" "$err"
err=$(CI=true "$G" audit --no-cache drivers/foo/big.c 2>&1 >/dev/null)
expect_nogrep "a short run: no progress line, the summary says it" "gfpaudit: progress" "$err"
finish
