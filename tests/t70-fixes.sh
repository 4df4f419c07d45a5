#!/usr/bin/env bash
# t70-fixes: candidate fixes.
#
# 1. Every diff the unit tests print (each fix shape on hand-made sites, and
#    pseudo-random edits) is accepted by the real `git apply --check` and
#    gives the same text as the edit model (the unit binary writes them with
#    GFPAUDIT_FIX_DUMP).
# 2. End to end on tests/fixes/*.c, placed under subsystem paths in a fresh
#    git repository: `gfpaudit audit --fix DIR` proposes exactly the
#    candidates in tests/fixes/*.expected (kinds and diffs, compared
#    exactly), every mail applies with `git am`, re-analysis of each applied
#    mail no longer reports the finding, subjects carry the subsystem prefix,
#    and Fixes: names the commit inside a git repository and is absent
#    outside one.
#
# TESTS_UPDATE=1 rewrites tests/fixes/*.expected from the current output.
# Env: GFPAUDIT (binary), UNIT (unit test binary).
set -u
here=$(cd "$(dirname "$0")" && pwd)
GFPAUDIT=${GFPAUDIT:-$here/../gfpaudit}
UNIT=${UNIT:-$here/../build/unit-tests}
. "$here/lib/assert.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp/home
mkdir -p "$HOME"
git config --global user.name "Fix Tester"
git config --global user.email "fixes@example.org"
git config --global init.defaultBranch main

# ---- 1. git apply accepts what the diff printer prints -------------------
if [ -x "$UNIT" ]; then
	GFPAUDIT_FIX_DUMP=$tmp/dump "$UNIT" >/dev/null 2>&1
	n=0 nbad=0
	for d in "$tmp"/dump/*.diff; do
		[ -f "$d" ] || continue
		n=$((n + 1))
		b=${d%.diff}
		p=$(cat "$b.path")
		w=$tmp/apply
		rm -rf "$w"
		mkdir -p "$w/$(dirname "$p")"
		cp "$b.orig" "$w/$p"
		if ! (cd "$w" && git apply --check "$d" 2>/dev/null && git apply "$d" 2>/dev/null) ||
		   ! cmp -s "$w/$p" "$b.want"; then
			nbad=$((nbad + 1))
			echo "  $(basename "$b"): git apply rejects or disagrees:"
			sed 's/^/    /' "$d" | head -20
		fi
	done
	if [ "$n" -lt 40 ]; then
		fail "unit tests dumped only $n diffs (expected at least 40)"
	elif [ "$nbad" = 0 ]; then
		ok "git apply accepts all $n diffs of the unit tests and gives the edited text"
	else
		fail "git apply: $nbad of $n diffs rejected or different"
	fi
else
	skip "no unit test binary at $UNIT"
fi

# ---- 2. end to end ---------------------------------------------------------
# case file -> path in the tree -> expected subject prefix
cases="noretry-loop.c:net/core/rx_ring.c:net
frag-refill.c:mm/page_frag_demo.c:mm/page_frag_demo
slab-table.c:drivers/net/ethernet/demo/core/flow.c:demo
ring-order.c:kernel/evt_ring.c:kernel/evt_ring
sink-macro.c:net/sunrpc/xprtrdma/svc_rdma_sink.c:svcrdma
nofail.c:fs/jbd3/journal.c:jbd3
nowarn.c:fs/iomap/stash.c:iomap"

tree=$tmp/tree
mkdir -p "$tree"
while IFS=: read -r src dst prefix; do
	mkdir -p "$tree/$(dirname "$dst")"
	cp "$here/fixes/$src" "$tree/$dst"
done <<< "$cases"
printf '*.[ch] diff=cpp\n' > "$tree/.gitattributes" # as the kernel's
(cd "$tree" && git init -q && git add -A &&
 GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
	git commit -qm "demo: add allocation sites")
head12=$(cd "$tree" && git rev-parse --short=12 HEAD)
paths=$(while IFS=: read -r src dst prefix; do echo "$dst"; done <<< "$cases")

# shellcheck disable=SC2086
(cd "$tree" && SOURCE_DATE_EPOCH=1767225600 "$GFPAUDIT" audit -j1 -v --format json --fix "$tmp/mails" \
	$paths > "$tmp/out.json" 2> "$tmp/err")
rc=$?
if [ "$rc" != 1 ]; then
	fail "audit --fix exits $rc, expected 1 (findings)"
	sed 's/^/  /' "$tmp/err" | tail -5
fi
if ! grep -q "^gfpaudit: fix:" "$tmp/err"; then
	fail "end to end: audit --fix -v says nothing about candidate fixes" "$(tail -5 "$tmp/err")"
	finish
fi

# per case: the candidates in a stable text form, compared exactly
render() { # json file path
	python3 - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    if f["file"] != sys.argv[2]:
        continue
    print("== %s %s:%d %s" % (f["rule"], f["function"], f["line"], f["api"]))
    for x in f["fixes"]:
        print("-- %s" % x["kind"])
        sys.stdout.write(x["diff"])
EOF
}
while IFS=: read -r src dst prefix; do
	exp=$here/fixes/${src%.c}.expected
	render "$tmp/out.json" "$dst" > "$tmp/got"
	if [ "${TESTS_UPDATE:-}" = 1 ]; then
		cp "$tmp/got" "$exp"
		ok "$src: expectation written"
	elif [ ! -f "$exp" ]; then
		fail "$src: no $exp (run with TESTS_UPDATE=1)"
	elif cmp -s "$tmp/got" "$exp"; then
		ok "$src: candidates and diffs as expected ($(grep -c '^-- ' "$exp") fixes)"
	else
		fail "$src: candidates differ from $(basename "$exp")"
		diff -u "$exp" "$tmp/got" | head -30 | sed 's/^/  /'
	fi
done <<< "$cases"

# every expected file names at least one fix of each shape the rules map to
kinds=$(cat "$here"/fixes/*.expected 2>/dev/null | sed -n 's/^-- //p' | sort -u | tr '\n' ' ')
want="add-noretry add-nowarn cap-order drop-nofail fallback-loop kvmalloc order-zero strip-direct-reclaim "
if [ "$kinds" = "$want" ]; then
	ok "every fix shape is exercised: $kinds"
else
	fail "shapes exercised: '$kinds', expected '$want'"
fi

# the refusals say why (-v)
if grep -q "slab-table.*kvmalloc: not offered: 't->desc' reaches 'dma_map_single'" "$tmp/err" ||
   grep -q "flow.c.*kvmalloc: not offered: 't->desc' reaches 'dma_map_single'" "$tmp/err"; then
	ok "kvmalloc refused for a DMA-mapped buffer, with the reason"
else
	fail "no refusal reason for the DMA-mapped kmalloc"
fi

# mails: headers, Fixes:, git am, re-analysis
nmail=0 nfixes=0 nam=0 nclean=0 nsame=0
for m in "$tmp"/mails/*.patch; do
	[ -f "$m" ] || continue
	nmail=$((nmail + 1))
	name=$(basename "$m")
	path=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$m" | head -1)
	prefix=$(while IFS=: read -r src dst pf; do [ "$dst" = "$path" ] && echo "$pf"; done <<< "$cases")
	if ! head -1 "$m" | grep -q '^From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001$' ||
	   ! grep -q '^Date: Thu, 01 Jan 2026 00:00:00 +0000$' "$m" ||
	   ! grep -q "^Subject: \[PATCH\] $prefix: " "$m" || ! grep -q '^---$' "$m"; then
		fail "$name: headers (From line, Date, 'Subject: [PATCH] $prefix: ...', ---)"
		continue
	fi
	if grep -qx "Fixes: $head12 (\"demo: add allocation sites\")" "$m"; then
		nfixes=$((nfixes + 1))
	fi
	rule=$(grep -o '(rule [a-z-]*)' "$m" | head -1 | sed 's/(rule \(.*\))/\1/')
	before=$(cd "$tree" && "$GFPAUDIT" audit -j1 -q --severity note "$path" 2>/dev/null | grep -c "\[$rule\]")
	if (cd "$tree" && git am -q "$m" 2>/dev/null); then
		nam=$((nam + 1))
		# the diff is the one git itself prints for the change
		(cd "$tree" && git diff HEAD~1 HEAD | grep -v '^index ') > "$tmp/git.diff"
		sed -n '/^diff --git/,/^-- $/p' "$m" | sed '$d' > "$tmp/mail.diff"
		if cmp -s "$tmp/git.diff" "$tmp/mail.diff"; then
			nsame=$((nsame + 1))
		else
			echo "  $name: differs from git diff:"
			diff "$tmp/mail.diff" "$tmp/git.diff" | head -10 | sed 's/^/    /'
		fi
		after=$(cd "$tree" && "$GFPAUDIT" audit -j1 -q --severity note "$path" 2>/dev/null | grep -c "\[$rule\]")
		if [ "$after" -lt "$before" ]; then
			nclean=$((nclean + 1))
		else
			echo "  $name: $rule reported $before times before, $after after"
		fi
		(cd "$tree" && git reset -q --hard HEAD~1)
	else
		(cd "$tree" && git am --abort 2>/dev/null)
		echo "  $name: git am failed"
	fi
done
if [ "$nmail" -ge 10 ]; then ok "audit --fix wrote $nmail mails"; else fail "audit --fix wrote $nmail mails, expected at least 10"; fi
if [ "$nfixes" = "$nmail" ]; then ok "every mail has 'Fixes: $head12 (\"demo: add allocation sites\")'"; else fail "Fixes: in $nfixes of $nmail mails"; fi
if [ "$nam" = "$nmail" ]; then ok "git am applies all $nmail mails"; else fail "git am applied $nam of $nmail mails"; fi
if [ "$nsame" = "$nmail" ]; then ok "each mail's diff is byte for byte what git diff prints"; else fail "$nsame of $nmail diffs equal git diff's"; fi
if [ "$nclean" = "$nmail" ]; then ok "after each mail the finding's rule is reported less often"; else fail "re-analysis: $nclean of $nmail mails remove their finding"; fi

# outside a git repository: no Fixes: line
mkdir -p "$tmp/nogit/fs/iomap"
cp "$here/fixes/nowarn.c" "$tmp/nogit/fs/iomap/stash.c"
(cd "$tmp/nogit" && GIT_CEILING_DIRECTORIES=$tmp "$GFPAUDIT" audit -j1 -q --fix "$tmp/mails2" fs/iomap/stash.c >/dev/null 2>&1)
m2=$(ls "$tmp"/mails2/*.patch 2>/dev/null | head -1)
if [ -n "$m2" ] && ! grep -q '^Fixes:' "$m2" && grep -q '^Subject: \[PATCH\] iomap: ' "$m2"; then
	ok "outside a git repository the mail has no Fixes: line"
else
	fail "outside a git repository: mail '${m2:-none}' should exist without a Fixes: line"
fi

finish
