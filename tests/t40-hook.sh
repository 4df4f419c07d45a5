#!/usr/bin/env bash
# End-to-end tests of 'gfpaudit check' and 'gfpaudit hook' on throwaway git
# repositories built here, with kernel-shaped C files written here (they
# parse against include/kmodel/, no kernel tree needed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
T=$(mktemp -d "${TMPDIR:-/tmp}/gfpaudit-t40.XXXXXX")
trap 'rm -rf "$T"' EXIT
# no user or system git configuration, a fixed identity
export HOME=$T/home GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global advice.detachedHead false

. "$here/lib/assert.sh"
# expect NAME WANT_EXIT GOT_EXIT [detail file...]
expect_exit() {
	local name=$1 want=$2 got=$3; shift 3
	if [ "$got" = "$want" ]; then ok "$name"; else
		fail "$name" "exit $got, expected $want" "$(cat "$@" 2>/dev/null | head -20)"; fi
}

# ---- fixtures: kernel-shaped code written for these tests ----

ring_base() { cat <<'EOF'
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>

struct ring {
	struct page *pages;
	unsigned int order;
};

static int ring_reset(struct ring *r)
{
	r->order = 0;
	return 0;
}

/* already costly before any change: must never be reported as new */
static struct page *ring_legacy(void)
{
	return alloc_pages(GFP_KERNEL, 5);
}

static int ring_grow(struct ring *r)
{
	r->pages = alloc_pages(GFP_KERNEL, 0);
	if (!r->pages)
		return -ENOMEM;
	return 0;
}
EOF
}

# ring_grow asks for order 4 with direct reclaim and nothing to fall back to
ring_bad() { ring_base | sed 's/alloc_pages(GFP_KERNEL, 0);/alloc_pages(GFP_KERNEL, 4);/'; }

# ring_grow tries orders 4..1 opportunistically (no direct reclaim,
# NORETRY, NOWARN), then order 0 with the caller's mask: the skb frag loop
# idiom.  (A single do/while over 4..0 that sets the mask by order is the
# shape of the upstream fix, but the engine in main joins the floor's mask
# into the loop's attempts and reports it: see corpus/ for that case.)
ring_good() { ring_base | sed '/^static int ring_grow/,$d'; cat <<'EOF'
static int ring_grow(struct ring *r)
{
	unsigned int order;

	r->pages = NULL;
	for (order = 4; order > 0; order--) {
		r->pages = alloc_pages((GFP_KERNEL & ~__GFP_DIRECT_RECLAIM) | __GFP_NORETRY |
				       __GFP_NOWARN, order);
		if (r->pages)
			break;
	}
	if (!r->pages)
		r->pages = alloc_pages(GFP_KERNEL, 0);
	if (!r->pages)
		return -ENOMEM;
	r->order = order;
	return 0;
}
EOF
}

# a repository with mm/ring.c committed
mkrepo() {
	local d=$1
	mkdir -p "$d/mm"
	git -C "$d" init -q
	ring_base > "$d/mm/ring.c"
	printf 'obj-y += ring.o\n' > "$d/mm/Makefile"
	git -C "$d" add -A && git -C "$d" commit -qm base
}

# run: OUT ERR := gfpaudit check ... in DIR; sets rc
run_check() {
	local dir=$1; shift
	(cd "$dir" && "$G" check "$@" >"$T/out" 2>"$T/err"); rc=$?
}

# ---- the engine reports the fixture's finding (the cases below rely on it) ----
mkdir -p "$T/probe/mm"
ring_bad > "$T/probe/mm/ring.c"
"$G" audit -q "$T/probe/mm/ring.c" >"$T/probe.out" 2>"$T/probe.err"
if grep -q 'ring.c:[0-9]*:[0-9]*: warning: .*\[costly-no-' "$T/probe.out"; then
	ok "the engine reports the fixture's costly allocation (gfpaudit audit)"
else
	fail "the engine reports the fixture's costly allocation (gfpaudit audit)" "$(cat "$T/probe.out" "$T/probe.err")"
fi

# ---- usage ----
mkrepo "$T/u"
run_check "$T/u" --format xml;  expect_exit "usage: unknown format" 2 $rc "$T/err"
run_check "$T/u" A B;           expect_exit "usage: two revisions" 2 $rc "$T/err"
run_check "$T/u" --staged HEAD; expect_exit "usage: --staged with a revision" 2 $rc "$T/err"
run_check "$T/u" no-such-rev;   expect_exit "usage: unknown revision" 2 $rc "$T/err"
mkdir -p "$T/norepo"
(cd "$T/norepo" && GIT_CEILING_DIRECTORIES=$T "$G" check --repo "$T/norepo" >"$T/out" 2>"$T/err"); rc=$?
# libgit2 searches upwards: $T must not be inside a repository for this one
if git -C "$T/norepo" rev-parse 2>/dev/null; then skip "usage: not a repository" "$T is inside a repository"
else expect_exit "usage: not a repository" 2 $rc "$T/err"; fi
"$G" hook frob >/dev/null 2>&1; expect_exit "usage: hook frob" 2 $?
"$G" hook install --force --chain >/dev/null 2>&1; expect_exit "usage: --force with --chain" 2 $?

# ---- nothing staged, non-C changes: clean and quiet ----
run_check "$T/u"
if [ $rc = 0 ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ]; then ok "nothing staged: exit 0, silent"
else fail "nothing staged: exit 0, silent" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
printf 'obj-y += ring.o other.o\n' > "$T/u/mm/Makefile"; git -C "$T/u" add mm/Makefile
run_check "$T/u"
if [ $rc = 0 ] && [ ! -s "$T/out" ]; then ok "only a Makefile staged: exit 0"
else fail "only a Makefile staged: exit 0" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
git -C "$T/u" reset -q --hard

# ---- tree context: not a kernel tree -> model headers, said once ----
ring_bad > "$T/u/mm/ring.c"; git -C "$T/u" add mm/ring.c
run_check "$T/u"
n=$(grep -c 'kernel-model headers' "$T/err")
if [ "$n" = 1 ]; then ok "no kernel tree: says 'kernel-model headers' once"
else fail "no kernel tree: says 'kernel-model headers' once" "said $n times" "$(cat "$T/err")"; fi
run_check "$T/u" --tree "$T/no-such-tree"
expect_exit "--tree that does not exist: usage" 2 $rc "$T/err"
git -C "$T/u" reset -q --hard

# ---- rename, delete, binary, symlink, header-only: no breakage ----
mkrepo "$T/r"
printf 'int helper_unused;\n' > "$T/r/mm/gone.c"
git -C "$T/r" add -A && git -C "$T/r" commit -qm more
git -C "$T/r" mv mm/ring.c mm/ringbuf.c
git -C "$T/r" rm -q mm/gone.c
printf '\0\1\2binary\0' > "$T/r/mm/blob.c"; printf '\0\0' > "$T/r/fw.bin"
ln -s ringbuf.c "$T/r/mm/link.c"
printf '#define RING_MAX 4\n' > "$T/r/mm/ring.h"
git -C "$T/r" add -A
run_check "$T/r"
if [ $rc = 0 ] && ! grep -q . "$T/out"; then ok "rename + delete + binary + symlink + header: exit 0, nothing new"
else fail "rename + delete + binary + symlink + header: exit 0, nothing new" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
run_check "$T/r" -v --format json
if [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["new"]==[] and isinstance(d["fixed"], list)' "$T/out" 2>"$T/py"; then
	ok "rename etc.: JSON has empty 'new' and a 'fixed' list"
else fail "rename etc.: JSON has empty 'new' and a 'fixed' list" "exit $rc" "$(cat "$T/out" "$T/py" | head)"; fi

# ---- the hook: install, refuse, chain, force, uninstall ----
mkrepo "$T/h"
hooks=$T/h/.git/hooks
(cd "$T/h" && "$G" hook install >"$T/out" 2>"$T/err"); rc=$?
if [ $rc = 0 ] && [ -x "$hooks/pre-commit" ] && grep -q '^# gfpaudit-hook: v1$' "$hooks/pre-commit" &&
	grep -qF "gfpaudit='$G'" "$hooks/pre-commit"; then
	ok "hook install: executable, marked, absolute binary path"
else fail "hook install: executable, marked, absolute binary path" "exit $rc" "$(cat "$T/err" "$hooks/pre-commit")"; fi
(cd "$T/h" && "$G" hook install 2>"$T/err"); rc=$?
if [ $rc = 0 ] && grep -q updated "$T/err"; then ok "hook install twice: updated in place"
else fail "hook install twice: updated in place" "exit $rc" "$(cat "$T/err")"; fi

# the installed hook runs under a real 'git commit' (it speaks on stderr)
ring_bad > "$T/h/mm/ring.c"; git -C "$T/h" add mm/ring.c
head_before=$(git -C "$T/h" rev-parse HEAD)
git -C "$T/h" commit -qm bad >"$T/out" 2>"$T/err"; rc=$?
if grep -q 'gfpaudit' "$T/err"; then ok "git commit runs the installed hook"
else fail "git commit runs the installed hook" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
if [ $rc != 0 ] && [ "$(git -C "$T/h" rev-parse HEAD)" = "$head_before" ] &&
	grep -q 'mm/ring.c:[0-9]*:[0-9]*: warning: .*\[costly-no-' "$T/err" &&
	grep -q 'git commit --no-verify' "$T/err"; then
	ok "git commit: a staged costly allocation without fallback blocks the commit"
else fail "git commit: a staged costly allocation without fallback blocks the commit" "exit $rc" "$(cat "$T/err")"; fi
git -C "$T/h" commit -qm bad --no-verify >"$T/out" 2>"$T/err"; rc=$?
if [ $rc = 0 ] && [ "$(git -C "$T/h" rev-parse HEAD)" != "$head_before" ] && ! grep -q gfpaudit "$T/err"; then
	ok "git commit --no-verify bypasses the hook"
else fail "git commit --no-verify bypasses the hook" "exit $rc" "$(cat "$T/err")"; fi
# 'git commit -a' hands the hook a temporary index (GIT_INDEX_FILE)
ring_good > "$T/h/mm/ring.c"; git -C "$T/h" commit -qam good >/dev/null 2>&1
ring_base | sed 's/GFP_KERNEL, 0/GFP_KERNEL, 6/' > "$T/h/mm/ring.c"
head_before=$(git -C "$T/h" rev-parse HEAD)
git -C "$T/h" commit -qam 'bad, unstaged until -a' >"$T/out" 2>"$T/err"; rc=$?
if [ $rc != 0 ] && [ "$(git -C "$T/h" rev-parse HEAD)" = "$head_before" ]; then
	ok "git commit -a: the hook judges what -a stages"
else fail "git commit -a: the hook judges what -a stages" "exit $rc" "$(cat "$T/err")"; fi
git -C "$T/h" checkout -q -- mm/ring.c
git -C "$T/h" reset -q --hard

# a foreign hook is refused, chained, forced, restored
printf '#!/bin/sh\necho "their hook ran" >&2\necho ran >> "%s/their-ran"\nexit 0\n' "$T" > "$T/their-hook"
chmod +x "$T/their-hook"
(cd "$T/h" && "$G" hook uninstall 2>"$T/err"); rc=$?
if [ $rc = 0 ] && [ ! -e "$hooks/pre-commit" ]; then ok "hook uninstall removes ours"
else fail "hook uninstall removes ours" "exit $rc" "$(cat "$T/err")"; fi
cp "$T/their-hook" "$hooks/pre-commit"
(cd "$T/h" && "$G" hook install 2>"$T/err"); rc=$?
if [ $rc = 2 ] && cmp -s "$T/their-hook" "$hooks/pre-commit" && grep -q -- '--chain' "$T/err"; then
	ok "hook install refuses to clobber a foreign hook"
else fail "hook install refuses to clobber a foreign hook" "exit $rc" "$(cat "$T/err")"; fi
(cd "$T/h" && "$G" hook install --chain 2>"$T/err"); rc=$?
if [ $rc = 0 ] && cmp -s "$T/their-hook" "$hooks/pre-commit.gfpaudit-chained" &&
	grep -q '^# gfpaudit-hook: v1$' "$hooks/pre-commit"; then
	ok "hook install --chain keeps the foreign hook"
else fail "hook install --chain keeps the foreign hook" "exit $rc" "$(cat "$T/err")"; fi
rm -f "$T/their-ran"
printf '/* a comment */\n' >> "$T/h/mm/ring.c"; git -C "$T/h" add mm/ring.c
git -C "$T/h" commit -qm 'comment only' >"$T/out" 2>"$T/err"; rc=$?
if [ $rc = 0 ] && [ -s "$T/their-ran" ] && grep -q 'gfpaudit' "$T/err"; then
	ok "chained: git commit runs their hook, then gfpaudit"
else fail "chained: git commit runs their hook, then gfpaudit" "exit $rc" "$(cat "$T/err")"; fi
# a failing chained hook stops the commit before gfpaudit runs
printf '#!/bin/sh\necho "their hook says no" >&2\nexit 7\n' > "$hooks/pre-commit.gfpaudit-chained"
printf '/* another */\n' >> "$T/h/mm/ring.c"; git -C "$T/h" add mm/ring.c
git -C "$T/h" commit -qm 'refused by theirs' >"$T/out" 2>"$T/err"; rc=$?
if [ $rc != 0 ] && grep -q 'their hook says no' "$T/err"; then ok "chained: their refusal blocks the commit"
else fail "chained: their refusal blocks the commit" "exit $rc" "$(cat "$T/err")"; fi
cp "$T/their-hook" "$hooks/pre-commit.gfpaudit-chained"
git -C "$T/h" reset -q --hard
(cd "$T/h" && "$G" hook uninstall 2>"$T/err"); rc=$?
if [ $rc = 0 ] && cmp -s "$T/their-hook" "$hooks/pre-commit" && [ ! -e "$hooks/pre-commit.gfpaudit-chained" ]; then
	ok "hook uninstall restores the chained hook"
else fail "hook uninstall restores the chained hook" "exit $rc" "$(cat "$T/err")"; fi
(cd "$T/h" && "$G" hook uninstall 2>"$T/err"); rc=$?
if [ $rc = 2 ] && cmp -s "$T/their-hook" "$hooks/pre-commit"; then ok "hook uninstall leaves a foreign hook alone"
else fail "hook uninstall leaves a foreign hook alone" "exit $rc" "$(cat "$T/err")"; fi
(cd "$T/h" && "$G" hook install --force 2>"$T/err"); rc=$?
if [ $rc = 0 ] && cmp -s "$T/their-hook" "$hooks/pre-commit.gfpaudit-saved" &&
	grep -q '^# gfpaudit-hook: v1$' "$hooks/pre-commit"; then
	ok "hook install --force replaces it (kept as pre-commit.gfpaudit-saved)"
else fail "hook install --force replaces it (kept as pre-commit.gfpaudit-saved)" "exit $rc" "$(cat "$T/err")"; fi

# core.hooksPath (relative: from the work tree top) is where git looks
mkrepo "$T/hp"
git -C "$T/hp" config core.hooksPath .githooks
(cd "$T/hp/mm" && "$G" hook install 2>"$T/err"); rc=$?
if [ $rc = 0 ] && [ -x "$T/hp/.githooks/pre-commit" ] && [ ! -e "$T/hp/.git/hooks/pre-commit" ]; then
	ok "hook install honours core.hooksPath"
else fail "hook install honours core.hooksPath" "exit $rc" "$(cat "$T/err")"; fi
printf '/* x */\n' >> "$T/hp/mm/ring.c"; git -C "$T/hp" add mm/ring.c
git -C "$T/hp" commit -qm x >"$T/out" 2>"$T/err"
if grep -q gfpaudit "$T/err"; then ok "core.hooksPath: git commit runs it"
else fail "core.hooksPath: git commit runs it" "$(cat "$T/err")"; fi

# linked worktree: the hook lives in the common dir and runs there too
mkrepo "$T/lw"
(cd "$T/lw" && "$G" hook install 2>/dev/null)
git -C "$T/lw" worktree add -q "$T/lw-wt" 2>/dev/null
(cd "$T/lw-wt" && "$G" hook install 2>"$T/err"); rc=$?
if [ $rc = 0 ] && grep -q updated "$T/err" && [ ! -e "$T/lw-wt/.git/hooks" ]; then
	ok "linked worktree: hook install finds the common hooks dir"
else fail "linked worktree: hook install finds the common hooks dir" "exit $rc" "$(cat "$T/err")"; fi

printf '/* wt */\n' >> "$T/lw-wt/mm/ring.c"; git -C "$T/lw-wt" add mm/ring.c
git -C "$T/lw-wt" commit -qm 'wt comment' >"$T/out" 2>"$T/err"; rc=$?
if [ $rc = 0 ] && grep -q gfpaudit "$T/err"; then ok "linked worktree: git commit runs the hook"
else fail "linked worktree: git commit runs the hook" "exit $rc" "$(cat "$T/err")"; fi
# from a subdirectory, with the repository given explicitly
printf '/* staged */\n' >> "$T/lw-wt/mm/ring.c"; git -C "$T/lw-wt" add mm/ring.c
(cd "$T/lw-wt/mm" && "$G" check -v --no-cache >"$T/out" 2>"$T/err"); rc=$?
(cd / && "$G" check -v --no-cache --repo "$T/lw-wt" >"$T/out2" 2>"$T/err2"); rc2=$?
if [ $rc = 0 ] && [ $rc2 = 0 ] && grep -q 'index against HEAD: 1 C files checked' "$T/err" && cmp -s "$T/err" "$T/err2"; then
	ok "check from a subdirectory = check --repo"
else fail "check from a subdirectory = check --repo" "exit $rc/$rc2" "$(cat "$T/err" "$T/err2")"; fi
git -C "$T/lw-wt" reset -q --hard

# ---- classification, end to end ----
mkrepo "$T/c"
ring_bad > "$T/c/mm/ring.c"; git -C "$T/c" add mm/ring.c
run_check "$T/c"
line=$(ring_bad | grep -n 'GFP_KERNEL, 4' | cut -d: -f1)
if [ $rc = 1 ] && grep -q "^mm/ring.c:$line:[0-9]*: warning: .*\[costly-no-" "$T/out" &&
	tail -n 1 "$T/err" | grep -q 'git commit --no-verify'; then
	ok "staged costly allocation without fallback: exit 1, GCC-style line"
else fail "staged costly allocation without fallback: exit 1, GCC-style line" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
legacy=$(ring_base | grep -n 'GFP_KERNEL, 5' | cut -d: -f1)
if [ $rc = 1 ] && ! grep -q "^mm/ring.c:$legacy:" "$T/out"; then
	ok "the finding that was there before is not reported"
else fail "the finding that was there before is not reported" "$(cat "$T/out")"; fi
run_check "$T/c" --warn-only
if [ $rc = 0 ] && grep -q 'costly-no-' "$T/out"; then ok "--warn-only: reports, exit 0"
else fail "--warn-only: reports, exit 0" "exit $rc" "$(cat "$T/out")"; fi
run_check "$T/c" --severity error
expect_exit "--severity error: warnings do not block" 0 $rc "$T/out" "$T/err"
run_check "$T/c" --format json
if [ $rc = 1 ] && python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert len(d["new"])>=1 and d["fixed"]==[], d
for f in d["new"]:
    assert f["file"]=="mm/ring.c" and f["function"]=="ring_grow" and f["rule"].startswith("costly-no-"), f
' "$T/out" 2>"$T/py"; then ok "--format json: new findings with repository paths"
else fail "--format json: new findings with repository paths" "exit $rc" "$(cat "$T/py" "$T/out" | head -30)"; fi

# the old version parsed in parallel (-j2) or after (-j1): same verdict
run_check "$T/c" -v --no-cache -j1; cp "$T/out" "$T/out.j1"; rc1=$rc; cp "$T/err" "$T/err.j1"
run_check "$T/c" -v --no-cache -j2
if [ $rc = 1 ] && [ $rc1 = 1 ] && cmp -s "$T/out" "$T/out.j1" &&
	grep -q 'parsed in parallel: 1 used' "$T/err" && ! grep -q 'parallel' "$T/err.j1"; then
	ok "-j2 parses the old version in parallel, same output as -j1"
else fail "-j2 parses the old version in parallel, same output as -j1" "exit $rc/$rc1" "$(cat "$T/err" "$T/err.j1")"; fi

# the same change with a fallback and NORETRY passes
ring_good > "$T/c/mm/ring.c"; git -C "$T/c" add mm/ring.c
run_check "$T/c"
if [ $rc = 0 ] && ! grep -q 'ring_grow\|costly' "$T/out"; then ok "fallback loop with NORETRY: exit 0"
else fail "fallback loop with NORETRY: exit 0" "exit $rc" "$(cat "$T/out" "$T/err")"; fi

# partially staged: the index decides, not the work tree
ring_good > "$T/c/mm/ring.c"; git -C "$T/c" add mm/ring.c; ring_bad > "$T/c/mm/ring.c"
run_check "$T/c"
expect_exit "partially staged: good staged, bad in the work tree -> exit 0" 0 $rc "$T/out" "$T/err"
ring_bad > "$T/c/mm/ring.c"; git -C "$T/c" add mm/ring.c; ring_good > "$T/c/mm/ring.c"
run_check "$T/c"
expect_exit "partially staged: bad staged, good in the work tree -> exit 1" 1 $rc "$T/out" "$T/err"
git -C "$T/c" checkout -q -- mm/ring.c

# touching the function of an old finding without changing its call
ring_base | sed 's|^\treturn alloc_pages(GFP_KERNEL, 5);|\t/* still costly, on purpose */\n&|' > "$T/c/mm/ring.c"
git -C "$T/c" add mm/ring.c
run_check "$T/c"
expect_exit "old finding in a touched function: not new, exit 0" 0 $rc "$T/out" "$T/err"
run_check "$T/c" -v
if ! grep -q 'fixed by this change' "$T/out"; then ok "-v: nothing fixed when nothing was"
else fail "-v: nothing fixed when nothing was" "$(cat "$T/out")"; fi

# removing the old costly call shows as fixed with -v
ring_base | sed 's/alloc_pages(GFP_KERNEL, 5)/alloc_pages(GFP_KERNEL, 0)/' > "$T/c/mm/ring.c"
git -C "$T/c" add mm/ring.c
run_check "$T/c" -v
if [ $rc = 0 ] && grep -q 'mm/ring.c:[0-9]*:[0-9]*: note: fixed by this change: .*\[costly-no-' "$T/out"; then
	ok "-v: a removed costly call is reported as fixed"
else fail "-v: a removed costly call is reported as fixed" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
git -C "$T/c" reset -q --hard

# rename with the old finding: follows the rename, nothing new
git -C "$T/c" mv mm/ring.c mm/ringbuf.c
printf '/* renamed */\n' >> "$T/c/mm/ringbuf.c"; git -C "$T/c" add mm/ringbuf.c
run_check "$T/c"
if [ $rc = 0 ] && [ ! -s "$T/out" ]; then ok "rename of a file with an old finding: nothing new"
else fail "rename of a file with an old finding: nothing new" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
git -C "$T/c" commit -qm renamed --no-verify

# REV and REV..REV
ring_bad > "$T/c/mm/ringbuf.c"; git -C "$T/c" commit -qam bad --no-verify
run_check "$T/c" HEAD
expect_exit "check REV: the commit adds a finding -> exit 1" 1 $rc "$T/out" "$T/err"
run_check "$T/c" HEAD~1
expect_exit "check REV: a rename-only commit -> exit 0" 0 $rc "$T/out" "$T/err"
run_check "$T/c" HEAD~2..HEAD
expect_exit "check A..B over both -> exit 1" 1 $rc "$T/out" "$T/err"

# initial commit: no HEAD yet
mkdir -p "$T/i/mm"; git -C "$T/i" init -q
ring_bad > "$T/i/mm/ring.c"; git -C "$T/i" add mm/ring.c
run_check "$T/i"
# every finding of a first commit is new, the old order-5 one included
if [ $rc = 1 ] && [ "$(grep -c 'costly-no-' "$T/out")" -ge 2 ]; then ok "initial commit: all findings are new, exit 1"
else fail "initial commit: all findings are new, exit 1" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
ring_good | sed 's/GFP_KERNEL, 5/GFP_KERNEL, 0/' > "$T/i/mm/ring.c"; git -C "$T/i" add mm/ring.c
run_check "$T/i"
expect_exit "initial commit: clean file -> exit 0" 0 $rc "$T/out" "$T/err"

# headers: staged header edits count, unstaged ones do not, and the
# results cache never hides either
mkdir -p "$T/hd/mm"; git -C "$T/hd" init -q
printf '#define RING_ORDER 0\n' > "$T/hd/mm/ring.h"
ring_base | sed 's|^#include <linux/slab.h>|&\n#include "ring.h"|; s/alloc_pages(GFP_KERNEL, 0);/alloc_pages(GFP_KERNEL, RING_ORDER);/' > "$T/hd/mm/ring.c"
git -C "$T/hd" add -A && git -C "$T/hd" commit -qm base
sed -i 's|^\tif (!r->pages)$|\t/* order from ring.h */\n&|' "$T/hd/mm/ring.c"; git -C "$T/hd" add mm/ring.c
run_check "$T/hd" -v
if [ $rc = 0 ] && grep -q 'cache .*: 0 reused, 2 analyzed' "$T/err"; then ok "cache: first run analyzes both sides"
else fail "cache: first run analyzes both sides" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
run_check "$T/hd" -v; cp "$T/out" "$T/out.cached"
run_check "$T/hd" -v --no-cache
if [ $rc = 0 ] && cmp -s "$T/out" "$T/out.cached"; then ok "cache: a cached run says what an uncached one says"
else fail "cache: a cached run says what an uncached one says" "$(diff "$T/out" "$T/out.cached")"; fi
printf '#define RING_ORDER 5\n' > "$T/hd/mm/ring.h"; git -C "$T/hd" add mm/ring.h
run_check "$T/hd" -v
if [ $rc = 1 ] && grep -q '^mm/ring.c:[0-9]*:[0-9]*: warning: .*order 5' "$T/out"; then
	ok "staged header change: the site it makes costly is new (cache not reused)"
else fail "staged header change: the site it makes costly is new (cache not reused)" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
git -C "$T/hd" reset -q mm/ring.h
run_check "$T/hd" -v
if [ $rc = 0 ] && ! grep -q 'order 5' "$T/out"; then ok "unstaged header change: parsed as staged"
else fail "unstaged header change: parsed as staged" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
git -C "$T/hd" add mm/ring.h; git -C "$T/hd" commit -qm 'order 5' --no-verify
printf '/* x */\n' >> "$T/hd/mm/ring.c"; git -C "$T/hd" add mm/ring.c
run_check "$T/hd" -v
if [ $rc = 0 ] && grep -q ' 0 new, 0 fixed, 0 outside the changed functions, 2 unchanged' "$T/err"; then
	ok "after the header is committed, its finding is old"
else fail "after the header is committed, its finding is old" "exit $rc" "$(cat "$T/out" "$T/err")"; fi
git -C "$T/hd" reset -q --hard
rm -rf "$T/hd/.git/gfpaudit-cache"
printf '/* y */\n' >> "$T/hd/mm/ring.c"; git -C "$T/hd" add mm/ring.c
GFPAUDIT_NO_CACHE=1 run_check "$T/hd"
if [ $rc = 0 ] && [ ! -e "$T/hd/.git/gfpaudit-cache" ]; then ok "GFPAUDIT_NO_CACHE=1: no cache written"
else fail "GFPAUDIT_NO_CACHE=1: no cache written" "exit $rc"; fi

# linked worktree: check and the hook work there
ring_bad > "$T/lw-wt/mm/ring.c"; git -C "$T/lw-wt" add mm/ring.c
run_check "$T/lw-wt"
expect_exit "linked worktree: check --staged -> exit 1" 1 $rc "$T/out" "$T/err"
head_before=$(git -C "$T/lw-wt" rev-parse HEAD)
git -C "$T/lw-wt" commit -qm bad >"$T/out" 2>"$T/err"; rc=$?
if [ $rc != 0 ] && [ "$(git -C "$T/lw-wt" rev-parse HEAD)" = "$head_before" ]; then
	ok "linked worktree: the hook blocks git commit"
else fail "linked worktree: the hook blocks git commit" "exit $rc" "$(cat "$T/err")"; fi

# ---- blanked bodies (issue 20): what the closure keeps ----
# check blanks the bodies of functions the change cannot affect; each case
# here needs a function the change does not touch, and fails (the last
# check of each) when only the touched functions are kept
# (GFPAUDIT_TEST_NO_CLOSURE=1, a test hook).
pool_base() { cat <<'EOF'
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/dma-mapping.h>

struct pool {
	struct page *pages, *desc;
	void *table;
	dma_addr_t addr;
};

/* the order comes from pool_fill() alone */
static struct page *pool_get(struct pool *p, unsigned int order)
{
	struct page *pg;

	pg = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, order);
	if (!pg)
		pg = alloc_pages(GFP_KERNEL, 0);
	return pg;
}

static struct page *pool_pages(gfp_t gfp, unsigned int order)
{
	return alloc_pages(gfp, order);
}

static int pool_fill(struct pool *p)
{
	p->pages = pool_get(p, 5);
	return p->pages ? 0 : -ENOMEM;
}

static int pool_spare(struct pool *p)
{
	p->table = kmalloc(64, GFP_KERNEL);
	return p->table ? 0 : -ENOMEM;
}

static int pool_ring(struct pool *p)
{
	p->desc = alloc_pages(GFP_KERNEL & ~__GFP_DIRECT_RECLAIM, 2);
	return p->desc ? 0 : -ENOMEM;
}

static int pool_unrelated(int a)
{
	return a * 2;
}

int pool_map(struct pool *p)
{
	p->addr = page_to_phys(p->desc);
	return pool_unrelated(0);
}

int pool_init(struct pool *p)
{
	return pool_fill(p) ?: pool_spare(p) ?: pool_ring(p) ?: pool_map(p);
}
EOF
}
mkdir -p "$T/bl/mm"; git -C "$T/bl" init -q
pool_base > "$T/bl/mm/pool.c"; git -C "$T/bl" add -A; git -C "$T/bl" commit -qm base
# run_blanked NAME WANT_EXIT WANT_LOST: with the closure and with
# --no-skip-bodies (both exit WANT_EXIT, same output), and without the
# closure (exit WANT_LOST)
run_blanked() {
	local name=$1 want=$2 lost=$3 a b
	run_check "$T/bl" --no-cache; a=$rc; cp "$T/out" "$T/out.skip"
	run_check "$T/bl" --no-cache --no-skip-bodies; b=$rc
	if [ "$a" = "$want" ] && [ "$b" = "$want" ] && cmp -s "$T/out" "$T/out.skip"; then
		ok "$name: blanked and full parse agree (exit $want)"
	else fail "$name: blanked and full parse agree (exit $want)" "exit $a / $b" "$(cat "$T/out.skip" "$T/out" "$T/err")"; fi
	GFPAUDIT_TEST_NO_CLOSURE=1 run_check "$T/bl" --no-cache
	expect_exit "$name: the case needs the closure (touched functions alone: exit $lost)" "$lost" $rc "$T/out"
	git -C "$T/bl" reset -q --hard
}
# a caller binds the changed function's order: pool_get loses its fallback
pool_base | sed 's/alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, order);/alloc_pages(GFP_KERNEL, order);/;
	/pg = alloc_pages(GFP_KERNEL, 0);/d; /if (!pg)$/d' > "$T/bl/mm/pool.c"; git -C "$T/bl" add -A
run_blanked "caller binds the order" 1 0
# the changed function calls a wrapper of the file: its site comes from the callee
pool_base | sed 's/p->table = kmalloc(64, GFP_KERNEL);/p->table = pool_pages(GFP_KERNEL, 5);/' > "$T/bl/mm/pool.c"
git -C "$T/bl" add -A
run_blanked "a callee is a wrapper" 1 0
# where the memory goes: another function maps the field the change stores
# into, so the costly order that cannot stall is a note, not a warning
pool_base | sed 's/~__GFP_DIRECT_RECLAIM, 2);/~__GFP_DIRECT_RECLAIM, 4);/' > "$T/bl/mm/pool.c"; git -C "$T/bl" add -A
run_blanked "a field read elsewhere" 0 1

finish
