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
nowarn.c:fs/iomap/stash.c:iomap
kv-family.c:drivers/misc/rule_ctx.c:misc"

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
if grep -q "flow.c:35: costly-no-fallback: kvmalloc: not offered: the memory must stay physically contiguous: it reaches 'dma_map_single" "$tmp/err"; then
	ok "kvmalloc refused for a DMA-mapped buffer, with the reason"
else
	fail "no refusal reason for the DMA-mapped kmalloc"
fi

# ... and JSON says it too: "fix_declined" on every finding without a fix
declined() { # json path line -> the finding's fix_declined
	python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    if f["file"] == sys.argv[2] and f["line"] == int(sys.argv[3]):
        print(f.get("fix_declined") or ("<%d fixes>" % len(f["fixes"])))
EOF
}
kvp=drivers/misc/rule_ctx.c
while IFS='|' read -r line want; do
	got=$(declined "$tmp/out.json" "$kvp" "$line")
	case "$got" in
	*"$want"*) ok "kv-family.c:$line: fix_declined says '$want'" ;;
	*) fail "kv-family.c:$line: fix_declined '$got', expected it to say '$want'" ;;
	esac
done <<'EOF'
43|'c->blob' is resized with krealloc
62|atomic context such as GFP_ATOMIC or GFP_NOWAIT
68|there is no devm_ kvmalloc variant
74|physically contiguous: it reaches 'dma_map_single
84|no kfree of 'c->stats' in this file
EOF
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(any(f.get("fix_declined") and f["fixes"] for f in d["findings"]))' "$tmp/out.json"; then
	ok "no finding has both fixes and fix_declined"
else
	fail "a finding has both fixes and fix_declined"
fi

# the cache keeps fixes: a result cached without --fixes is not reused for
# --fixes, and one cached with --fixes comes back with its fixes
cachedb=$tmp/cache.sqlite
nfix() { python3 -c 'import json,sys; print(sum(len(f["fixes"]) for f in json.load(open(sys.argv[1]))["findings"]))' "$1"; }
(cd "$tree" && "$GFPAUDIT" audit -j1 --cache "$cachedb" --format json "$kvp" > "$tmp/c0.json" 2>/dev/null)
(cd "$tree" && "$GFPAUDIT" audit -j1 --cache "$cachedb" --format json --fixes "$kvp" > "$tmp/c1.json" 2>/dev/null)
(cd "$tree" && "$GFPAUDIT" audit -j1 -v --cache "$cachedb" --format json --fixes "$kvp" > "$tmp/c2.json" 2>"$tmp/c2.err")
n0=$(nfix "$tmp/c0.json") n1=$(nfix "$tmp/c1.json") n2=$(nfix "$tmp/c2.json")
ndecl() { python3 -c 'import json,sys; print(sum(1 for f in json.load(open(sys.argv[1]))["findings"] if f.get("fix_declined")))' "$1"; }
if [ "$n0" = 0 ] && [ "$n1" -ge 2 ] && [ "$n2" = "$n1" ] && [ "$(ndecl "$tmp/c2.json")" = "$(ndecl "$tmp/c1.json")" ] &&
   [ "$(ndecl "$tmp/c0.json")" = 0 ] && grep -q " 1 from the cache" "$tmp/c2.err"; then
	ok "the cache keeps fixes apart: $n0 without --fixes, $n1 with, $n2 from the cache"
else
	fail "cache and --fixes: $n0 fixes without --fixes, $n1 with, $n2 on the cached run ($(grep -o '[0-9]* from the cache' "$tmp/c2.err"))"
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
