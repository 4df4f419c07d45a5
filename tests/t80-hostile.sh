#!/usr/bin/env bash
# t80-hostile: hostile input and faults (issue 16).  Each case is a defect
# that was seen: a long series crashing review, workers outliving their
# parent, includes of device files, a shared fresh cache, sloppy numbers,
# lost output, a clobbered saved hook, escape sequences from mail, slow
# hunk relocation, forged cache rows.  Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
. "$here/lib/assert.sh"
T=$(mktemp -d /tmp/gfpaudit-t80.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME=$T/xdg
export GIT_AUTHOR_NAME="Ann Author" GIT_AUTHOR_EMAIL=ann@example.org
export GIT_COMMITTER_NAME="Ann Author" GIT_COMMITTER_EMAIL=ann@example.org
export GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" GIT_COMMITTER_DATE="2024-01-01T00:00:00Z"
git_() { git -C "$1" -c core.hooksPath=/dev/null -c commit.gpgsign=false "${@:2}"; }

# a small file with one costly allocation and no fallback
bad_c() {
	cat <<'C'
/* a test fixture written for gfpaudit */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/errno.h>

static struct page *ring_pages;

int ring_init(void)
{
	ring_pages = alloc_pages(GFP_KERNEL, 5);
	if (!ring_pages)
		return -ENOMEM;
	return 0;
}
C
}

# ---- review: a 12-patch series (the per-series cache grows past 8) ----
sec_review12() {
R=$T/repo
mkdir -p "$R/drivers/foo"
git init -q "$R"
bad_c > "$R/drivers/foo/ring.c"
git_ "$R" add -A && git_ "$R" commit -qm "foo: base"
BASE=$(git_ "$R" rev-parse HEAD)
git_ "$R" checkout -q -b series
for i in $(seq 1 12); do
	printf '/* change %d */\n' "$i" >> "$R/drivers/foo/ring.c"
	git_ "$R" commit -qam "foo: change $i" -m "Signed-off-by: Ann Author <ann@example.org>"
done
git_ "$R" format-patch -q --cover-letter --base="$BASE" -o "$T/s12" "$BASE..HEAD"
cat "$T"/s12/*.patch > "$T/s12.mbox"
git_ "$R" checkout -q "$BASE" 2>/dev/null
# the read after realloc rarely faults by itself: valgrind (or the ASan
# build under `make asan`) makes it fail every time
vg=
case "$G" in *asan*) ;; *) command -v valgrind >/dev/null && vg="valgrind -q --error-exitcode=99" ;; esac
MALLOC_PERTURB_=165 $vg "$G" review --tree "$R" --format json "$T/s12.mbox" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["patches"]) == 12, d' "$T/out" 2>"$T/py"; then
	ok "review: a 12-patch series is reviewed whole (series cache by index)"
else fail "review: a 12-patch series is reviewed whole (series cache by index)" "exit $rc $(cat "$T/err" "$T/py" | head -5)"; fi
}

# ---- strict numbers: nothing is silently read as 0 or truncated ----
sec_numbers() {
bad_c > "$T/bad.c"
for a in "--timeout abc" "--timeout 0" "--timeout -5" "--timeout 5s" "--timeout=" "-j 3x" "-j 0" "-j -2" \
	"-j 99999999999999999999" "--shard 1/2x" "--shard +1/2"; do
	# shellcheck disable=SC2086
	"$G" audit --no-cache $a "$T/bad.c" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -q "takes" "$T/err" && [ ! -s "$T/out" ]; then ok "audit $a: exit 2, says what it takes"
	else fail "audit $a: exit 2, says what it takes" "exit $rc $(cat "$T/err")"; fi
done
"$G" check -j 2x >"$T/out" 2>"$T/err"; rc=$?
expect_rc "check -j 2x: usage" 2 $rc "$(cat "$T/err")"
"$G" explain "$T/bad.c:+10" >"$T/out" 2>"$T/err"; rc=$?
expect_rc "explain FILE:+10: usage" 2 $rc "$(cat "$T/err")"
"$G" audit --no-cache -q --timeout 30 -j 1 "$T/bad.c" >"$T/out" 2>"$T/err"; rc=$?
expect_rc "audit --timeout 30 -j 1: accepted (a finding)" 1 $rc "$(cat "$T/err")"
}

# ---- workers: limits, and they never outlive the parent ----
# gone PID: the process has exited (a zombie waiting for init counts)
gone() {
	local i st
	for i in $(seq 50); do
		st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 0
		[ -z "$st" ] || [ "$st" = Z ] && return 0
		sleep 0.1
	done
	return 1
}
# start_hung: an audit whose two workers hang; sets P and W
start_hung() {
	bad_c > "$T/w1.c"; bad_c > "$T/w2.c"
	GFPAUDIT_TEST_HANG=/w "$G" audit --no-cache -q -j 2 "$T/w1.c" "$T/w2.c" >"$T/out" 2>"$T/err" &
	P=$!
	local i
	for i in $(seq 100); do
		W=$(pgrep -P "$P" | tr '\n' ' ')
		[ "$(echo $W | wc -w)" = 2 ] && return 0
		sleep 0.1
	done
}
sec_workers() {
	start_hung
	kill -TERM "$P"; wait "$P"; rc=$?
	local alive=
	for w in $W; do gone "$w" || alive="$alive $w"; done
	if [ $rc = 143 ] && [ -n "$W" ] && [ -z "$alive" ] && grep -q "interrupted by signal 15" "$T/err"; then
		ok "SIGTERM to audit: workers killed and reaped, audit dies of SIGTERM"
	else fail "SIGTERM to audit: workers killed and reaped, audit dies of SIGTERM" "exit $rc workers '$W' alive '$alive' $(cat "$T/err")"; fi
	start_hung
	kill -KILL "$P"; wait "$P" 2>/dev/null
	alive=
	for w in $W; do gone "$w" || alive="$alive $w"; done
	if [ -n "$W" ] && [ -z "$alive" ]; then ok "SIGKILL to audit: the workers die with it (PDEATHSIG)"
	else fail "SIGKILL to audit: the workers die with it (PDEATHSIG)" "workers '$W' alive '$alive'"; fi
	kill -KILL $alive 2>/dev/null
	bad_c > "$T/hog.c"
	case "$G" in
	*asan*) skip "--memory-limit: ASan reserves more address space than any limit (not set there)" ;;
	*)
		GFPAUDIT_TEST_HOG=hog.c timeout 60 "$G" audit --no-cache -q --memory-limit 256 "$T/hog.c" >"$T/out" 2>"$T/err"; rc=$?
		if [ $rc = 3 ] && grep -q "hog.c: failed: analyzer crashed" "$T/err"; then ok "--memory-limit: a worker past its limit costs its file (exit 3)"
		else fail "--memory-limit: a worker past its limit costs its file (exit 3)" "exit $rc $(cat "$T/err")"; fi
		# the limit is on top of what a worker inherits: a parent holding
		# more than the limit (a whole tree's results before the facts
		# passes) still gets its files parsed
		bad_c > "$T/big-parent.c"
		GFPAUDIT_TEST_BALLAST_MB=400 timeout 60 "$G" audit --no-cache -q --memory-limit 256 "$T/big-parent.c" >"$T/out" 2>"$T/err"; rc=$?
		if [ $rc = 1 ] && grep -q "costly-no-fallback" "$T/out" && ! grep -q "failed" "$T/err"; then ok "--memory-limit counts from what the worker inherits (a 400 MiB parent, a 256 MiB limit)"
		else fail "--memory-limit counts from what the worker inherits (a 400 MiB parent, a 256 MiB limit)" "exit $rc $(cat "$T/err")"; fi
		# -v's peak worker RSS is the worker's own, on the file it was on;
		# the parent's 400 MiB it shares only in the figure in brackets
		GFPAUDIT_TEST_BALLAST_MB=400 timeout 60 "$G" audit --no-cache -q -v -j 1 "$T/big-parent.c" >"$T/out" 2>"$T/err"
		own=$(sed -n 's/.*peak worker RSS \([0-9]*\) MiB on .*big-parent.c (\([0-9]*\) MiB with.*/\1 \2/p' "$T/err")
		set -- $own
		if [ -n "${2:-}" ] && [ "$1" -lt 300 ] && [ "$2" -ge 400 ]; then ok "-v: a worker's own peak on its file, the parent's shared pages apart ($1 / $2 MiB)"
		else fail "-v: a worker's own peak on its file, the parent's shared pages apart" "$(grep 'peak worker' "$T/err")"; fi ;;
	esac
	# a worker burning CPU while its parent cannot act (stopped): RLIMIT_CPU
	# (--timeout plus 2 s of CPU) ends it
	bad_c > "$T/spin.c"
	GFPAUDIT_TEST_SPIN=spin.c "$G" audit --no-cache -q -j 1 --timeout 1 "$T/spin.c" >"$T/out" 2>"$T/err" &
	P=$!
	local wpid= i
	for i in $(seq 200); do
		wpid=$(pgrep -P "$P" | head -1)
		[ -n "$wpid" ] && [ "$(awk '{ print $3 }' "/proc/$wpid/stat" 2>/dev/null)" = R ] && break
		sleep 0.05
	done
	kill -STOP "$P"
	local died=no
	for i in $(seq 120); do
		st=$(awk '{ print $3 }' "/proc/$wpid/stat" 2>/dev/null)
		if [ -z "$st" ] || [ "$st" = Z ]; then died=yes; break; fi
		sleep 0.25
	done
	kill -CONT "$P"; wait "$P"; rc=$?
	if [ -n "$wpid" ] && [ $died = yes ] && [ $rc = 3 ] && grep -q "signal 24" "$T/err"; then
		ok "a spinning worker is ended by its CPU limit even with the parent stopped"
	else fail "a spinning worker is ended by its CPU limit even with the parent stopped" "worker '$wpid' died $died exit $rc $(cat "$T/err")"; fi
	"$G" audit --no-cache --memory-limit 12x "$T/hog.c" >/dev/null 2>&1; rc=$?
	expect_rc "--memory-limit 12x: usage" 2 $rc
}

# ---- includes that libclang must never open ----
sec_includes() {
	local name
	printf '#include "/dev/zero"\nint x;\n' > "$T/zero.c"
	printf '#include <linux/gfp.h>\n#include "/dev/stdin"\nint x;\n' > "$T/stdin.c"
	printf '#include "../../../../../../../../../../etc/passwd"\nint x;\n' > "$T/escape.c"
	mkfifo "$T/fifo.h"
	printf '#include "fifo.h"\nint x;\n' > "$T/fifo.c"
	for name in zero stdin escape fifo; do
		timeout 60 "$G" audit --no-cache -q "$T/$name.c" >"$T/out" 2>"$T/err" </dev/null; rc=$?
		if [ $rc = 3 ] && grep -q "$name.c: failed: refused: line [12]: #include" "$T/err"; then
			ok "audit: #include of $name refused with a reason (exit 3)"
		else fail "audit: #include of $name refused with a reason (exit 3)" "exit $rc $(cat "$T/err")"; fi
	done
	printf '/* #include "/dev/zero" */\n#include <linux/gfp.h>\nint f(void) { return 0; }\n' > "$T/commented.c"
	"$G" audit --no-cache -q "$T/commented.c" >"$T/out" 2>"$T/err"; rc=$?
	expect_rc "audit: an #include in a comment is not refused" 0 $rc "$(cat "$T/err")"

	# a mailed patch that adds the include: review refuses, in seconds
	local R2=$T/increpo
	mkdir -p "$R2/drivers/foo"; git init -q "$R2"
	bad_c > "$R2/drivers/foo/ring.c"
	git_ "$R2" add -A && git_ "$R2" commit -qm base
	local base; base=$(git_ "$R2" rev-parse HEAD)
	sed -i '1a #include "/dev/zero"' "$R2/drivers/foo/ring.c"
	git_ "$R2" commit -qam "foo: zero" -m "Signed-off-by: Ann Author <ann@example.org>"
	git_ "$R2" format-patch -q --base="$base" --stdout -1 > "$T/zero.mbox"
	sed -i '1a #define Z "/dev/zero"\n#include Z' "$R2/drivers/foo/ring.c"
	git_ "$R2" commit -qam "foo: computed" -m "Signed-off-by: Ann Author <ann@example.org>"
	git_ "$R2" format-patch -q --base="$base" --stdout -2 > "$T/computed.mbox"
	git_ "$R2" reset -q --hard "$base"
	timeout 60 "$G" review --tree "$R2" --format json "$T/zero.mbox" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 3 ] && grep -q 'refused: line 2: #include "/dev/zero" names a device' "$T/err"; then
		ok "review: a mailed #include \"/dev/zero\" is refused (exit 3, not a pass)"
	else fail "review: a mailed #include \"/dev/zero\" is refused (exit 3, not a pass)" "exit $rc $(cat "$T/err")"; fi
	timeout 60 "$G" review --tree "$R2" --format b4 < "$T/zero.mbox" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 0 ] && ! grep -q '"pass"' "$T/out"; then ok "review --format b4: a refused file is no pass"
	else fail "review --format b4: a refused file is no pass" "exit $rc $(cat "$T/out" "$T/err")"; fi
	# a sibling directory's header, through "..": the repository's own ground
	mkdir -p "$R2/drivers/bar"; printf '#define BAR 1\n' > "$R2/drivers/bar/bar.h"
	git_ "$R2" add -A && git_ "$R2" commit -qm "bar"
	local base2; base2=$(git_ "$R2" rev-parse HEAD)
	sed -i '1a #include "../bar/bar.h"' "$R2/drivers/foo/ring.c"
	git_ "$R2" commit -qam "foo: use bar" -m "Signed-off-by: Ann Author <ann@example.org>"
	git_ "$R2" format-patch -q --base="$base2" --stdout -1 > "$T/sibling.mbox"
	git_ "$R2" reset -q --hard "$base2"
	timeout 60 "$G" review --tree "$R2" --format json "$T/sibling.mbox" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 0 ] && ! grep -q refused "$T/err"; then ok "review: a mailed #include of a sibling directory's header is not refused"
	else fail "review: a mailed #include of a sibling directory's header is not refused" "exit $rc $(cat "$T/err")"; fi
	timeout 60 "$G" review --tree "$R2" --format json "$T/computed.mbox" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 3 ] && grep -q 'computed #include' "$T/err"; then ok "review: a computed #include in mailed text is refused"
	else fail "review: a computed #include in mailed text is refused" "exit $rc $(cat "$T/err")"; fi
	# a staged file: check refuses too, and says so
	sed -i '1a #include "/dev/stdin"' "$R2/drivers/foo/ring.c"
	git_ "$R2" add drivers/foo/ring.c
	(cd "$R2" && timeout 60 "$G" check --staged --no-cache </dev/null >"$T/out" 2>"$T/err"); rc=$?
	if [ $rc = 3 ] && grep -q 'refused' "$T/err"; then ok "check --staged: a staged #include \"/dev/stdin\" is refused (exit 3)"
	else fail "check --staged: a staged #include \"/dev/stdin\" is refused (exit 3)" "exit $rc $(cat "$T/err")"; fi
}

# ---- the cache: shared by concurrent runs, never a special file ----
sec_cache() {
	local k rcs=
	for k in 1 2 3 4; do bad_c > "$T/p$k.c"; done
	for k in 1 2 3 4; do
		"$G" audit -q --cache "$T/fresh.sqlite" "$T/p$k.c" >"$T/out$k" 2>"$T/err$k" &
	done
	for k in 1 2 3 4; do wait %$k 2>/dev/null; done
	wait
	for k in 1 2 3 4; do "$G" audit -q --cache "$T/fresh.sqlite" "$T/p$k.c" >/dev/null 2>>"$T/err$k"; rcs="$rcs $?"; done
	if ! cat "$T"/err[1-4] | grep -qi "locked\|cache" && [ "$rcs" = " 1 1 1 1" ]; then
		ok "four audits on one fresh --cache: no 'database is locked'"
	else fail "four audits on one fresh --cache: no 'database is locked'" "$rcs $(cat "$T"/err[1-4])"; fi
	# a run that waits on a hung worker holds no write lock meanwhile
	bad_c > "$T/old.c"; bad_c > "$T/hang.c"
	touch -d '2020-01-01' "$T/old.c" "$T/hang.c"
	"$G" audit -q --cache "$T/shared.sqlite" "$T/old.c" >/dev/null 2>&1
	# same text, new times: the lookup hits, and writes the new stat row
	touch -d '2020-01-02' "$T/old.c"
	GFPAUDIT_TEST_HANG=hang.c "$G" audit -q -j 1 --timeout 20 --cache "$T/shared.sqlite" "$T/old.c" "$T/hang.c" \
		>/dev/null 2>&1 &
	local A=$!
	sleep 3
	bad_c > "$T/other.c"
	GFPAUDIT_TEST_BUSY_MS=1500 timeout 8 "$G" audit -q --cache "$T/shared.sqlite" "$T/other.c" >"$T/out" 2>"$T/err"; rc=$?
	kill "$A" 2>/dev/null; wait "$A" 2>/dev/null
	if [ $rc = 1 ] && ! grep -qi "locked" "$T/err"; then ok "a second audit is not locked out while the first waits on a worker"
	else fail "a second audit is not locked out while the first waits on a worker" "exit $rc $(cat "$T/err")"; fi
	# special files are refused as caches, and nothing appears next to them
	local before; before=$(ls /dev | grep -c '^null-' || true)
	"$G" audit -q --cache /dev/null "$T/p1.c" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -q "'/dev/null' is not a regular file" "$T/err" &&
		[ "$(ls /dev | grep -c '^null-' || true)" = "$before" ]; then
		ok "--cache /dev/null: refused (exit 2), no /dev/null-journal"
	else fail "--cache /dev/null: refused (exit 2), no /dev/null-journal" "exit $rc $(cat "$T/err")"; fi
	mkfifo "$T/fifo.sqlite"
	timeout 20 "$G" audit -q --cache "$T/fifo.sqlite" "$T/p1.c" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -q "not a regular file" "$T/err"; then ok "--cache FIFO: refused (exit 2)"
	else fail "--cache FIFO: refused (exit 2)" "exit $rc $(cat "$T/err")"; fi
}

# ---- staged and mailed content is analyzed in a child: a crash or a hang
# costs that file (exit 3, never a pass), not the commit check or the review ----
# deep_c: a function clang's parser overflows its stack on, then a costly
# allocation it hides
deep_c() {
	python3 -c 'print("int deep(int a) { return " + "+".join(["a"] * 200000) + "; }")'
	bad_c
}
sec_isolation() {
	local R=$T/isorepo
	mkdir -p "$R"; git init -q "$R"
	printf 'int x;\n' > "$R/deep.c"
	git_ "$R" add -A && git_ "$R" commit -qm base
	deep_c > "$R/deep.c"; git_ "$R" add deep.c
	(cd "$R" && "$G" check --no-cache) >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 3 ] && grep -q "deep.c: failed: analyzer crashed" "$T/err"; then
		ok "check: a staged file that crashes the parser fails alone (exit 3, says so)"
	else fail "check: a staged file that crashes the parser fails alone (exit 3, says so)" "exit $rc $(cat "$T/err")"; fi
	bad_c > "$R/deep.c"; git_ "$R" add deep.c
	(cd "$R" && GFPAUDIT_TEST_HANG=deep.c "$G" check --no-cache --timeout 2) >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 3 ] && grep -q "timed out after 2 s" "$T/err"; then ok "check --timeout: a hung analysis is killed (exit 3)"
	else fail "check --timeout: a hung analysis is killed (exit 3)" "exit $rc $(cat "$T/err")"; fi
	(cd "$R" && "$G" check --no-cache) >"$T/out" 2>"$T/err"; rc=$?
	expect_rc "check: the same file without the hook is analyzed (exit 1)" 1 $rc "$(cat "$T/err")"
	"$G" check --timeout 5x >/dev/null 2>&1; rc=$?
	expect_rc "check --timeout 5x: usage" 2 $rc
	# review: a patch adding the file clang cannot parse
	git_ "$R" reset -q --hard
	local base; base=$(git_ "$R" rev-parse HEAD)
	deep_c > "$R/deep.c"
	git_ "$R" commit -qam "foo: deep" -m "Signed-off-by: Ann Author <ann@example.org>"
	git_ "$R" format-patch -q --base="$base" --stdout -1 > "$T/deep.mbox"
	git_ "$R" reset -q --hard "$base"
	"$G" review --tree "$R" --format json "$T/deep.mbox" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 3 ] && grep -q "analyzer crashed" "$T/out" "$T/err"; then
		ok "review: a mailed file that crashes the parser costs that file (exit 3), the review completes"
	else fail "review: a mailed file that crashes the parser costs that file (exit 3), the review completes" "exit $rc $(cat "$T/err" | head -5)"; fi
	"$G" review --tree "$R" --format b4 < "$T/deep.mbox" >"$T/out" 2>"$T/err"; rc=$?
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d and all(x["status"] != "pass" for x in d), d' "$T/out" 2>"$T/py"; then
		ok "review --format b4: a file that crashed the analysis is never a pass"
	else fail "review --format b4: a file that crashed the analysis is never a pass" "exit $rc $(cat "$T/out" "$T/err" "$T/py" | head -5)"; fi
}

# ---- faults: a worker killed mid-file, a disk too full for the cache ----
sec_faults() {
	local i
	mkdir -p "$T/fl"
	for i in $(seq 1 12); do bad_c | sed "s/ring_/ring${i}_/g" > "$T/fl/f$i.c"; done
	"$G" audit --no-cache -q --format json "$T"/fl/f*.c > "$T/fl.ref" 2>/dev/null
	# kill -9 the worker of one file while it is on it (-j 1: one worker; it
	# sleeps, in pause(), only once it reaches the hooked file)
	GFPAUDIT_TEST_HANG=f7.c "$G" audit --no-cache -q -j 1 --format json "$T"/fl/f*.c >"$T/out" 2>"$T/err" &
	local P=$! w= st asleep=0
	for i in $(seq 600); do
		w=$(pgrep -P "$P" | head -1)
		st=$([ -n "$w" ] && awk '{ print $3 }' "/proc/$w/stat" 2>/dev/null)
		[ "$st" = S ] && asleep=$((asleep + 1)) || asleep=0
		[ $asleep -ge 10 ] && break
		sleep 0.1
	done
	[ -n "$w" ] && kill -KILL "$w"
	wait "$P"; rc=$?
	if [ $rc = 1 ] && grep -q "f7.c: failed: analyzer crashed on this file (signal 9" "$T/err" &&
		[ "$(grep -c ': failed: ' "$T/err")" = 1 ] && python3 - "$T/out" <<'PY' 2>"$T/py"
import json, sys
d = json.load(open(sys.argv[1]))
files = {f["file"].rsplit("/", 1)[-1] for f in d["findings"]}
assert files == {"f%d.c" % i for i in range(1, 13) if i != 7}, sorted(files)
PY
	then ok "a worker killed (-9) mid-file costs that file, the other eleven results are whole"
	else fail "a worker killed (-9) mid-file costs that file, the other eleven results are whole" "exit $rc $(cat "$T/err" "$T/py" | head -5)"; fi
	# the disk cannot even hold a new cache: warn, go on without it
	rm -f "$T/full.sqlite"*
	(trap '' XFSZ; ulimit -f 1; "$G" audit -j 2 --cache "$T/full.sqlite" --format json "$T"/fl/f*.c 2>"$T/err"; echo $? > "$T/rc") | cat > "$T/out"
	rc=$(cat "$T/rc")
	if [ "$rc" = 1 ] && grep -q "going on without a cache" "$T/err" && cmp -s <(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$T/out") \
		<(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$T/fl.ref"); then
		ok "full disk: a cache that cannot be created costs speed, not results (warning, exit 1)"
	else fail "full disk: a cache that cannot be created costs speed, not results (warning, exit 1)" "exit $rc $(head -3 "$T/err")"; fi
	# the cache opens (schema written) but fills up during the run
	rm -f "$T/full.sqlite"*
	"$G" audit -q --cache "$T/full.sqlite" "$T/fl/f1.c" >/dev/null 2>&1
	local kb=$(( $(du -k "$T/full.sqlite" | cut -f1) + 2 ))
	(trap '' XFSZ; ulimit -f $kb; "$G" audit -j 2 --cache "$T/full.sqlite" --format json "$T"/fl/f*.c 2>"$T/err"; echo $? > "$T/rc") | cat > "$T/out"
	rc=$(cat "$T/rc")
	if [ "$rc" = 1 ] && grep -q "the cache did not take" "$T/err" && cmp -s <(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$T/out") \
		<(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$T/fl.ref"); then
		ok "full disk mid-run: the results are whole, the lost cache rows are reported (exit 1)"
	else fail "full disk mid-run: the results are whole, the lost cache rows are reported (exit 1)" "exit $rc kb $kb $(head -3 "$T/err")"; fi
	"$G" audit -v --cache "$T/full.sqlite" "$T"/fl/f*.c >/dev/null 2>"$T/err"; rc=$?
	expect_rc "full disk mid-run: the cache is still usable afterwards" 1 $rc "$(tail -2 "$T/err")"
	# a read-only cache (root writes anything: run as nobody then)
	local as=
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
	if [ "$(id -u)" = 0 ] && { [ -z "$as" ] || ! $as "$G" --version >/dev/null 2>&1; }; then
		skip "read-only cache: root cannot be refused a write, and nobody cannot run $G here"
	else
		rm -f "$T/ro.sqlite"*
		"$G" audit -q --cache "$T/ro.sqlite" "$T/fl/f1.c" >/dev/null 2>&1
		chmod 444 "$T/ro.sqlite"*; chmod 755 "$T" "$T/fl"; chmod 644 "$T"/fl/*.c
		$as env XDG_CACHE_HOME="$T/xdg-ro" "$G" audit -j 2 --cache "$T/ro.sqlite" --format json "$T"/fl/f*.c >"$T/out" 2>"$T/err"; rc=$?
		if [ $rc = 1 ] && grep -q "going on without a cache" "$T/err" && cmp -s <(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$T/out") \
			<(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$T/fl.ref"); then
			ok "read-only cache: a warning, the results whole (exit 1)"
		else fail "read-only cache: a warning, the results whole (exit 1)" "exit $rc $(head -3 "$T/err")"; fi
		chmod 700 "$T"
	fi
}

# ---- output errors: never a silent loss ----
# small_series DIR: a repository with one patch mailed as DIR.mbox
small_series() {
	local R3=$1
	mkdir -p "$R3/drivers/foo"; git init -q "$R3"
	bad_c > "$R3/drivers/foo/ring.c"
	git_ "$R3" add -A && git_ "$R3" commit -qm base
	local base; base=$(git_ "$R3" rev-parse HEAD)
	printf '/* more */\n' >> "$R3/drivers/foo/ring.c"
	git_ "$R3" commit -qam "foo: more" -m "Signed-off-by: Ann Author <ann@example.org>"
	git_ "$R3" format-patch -q --base="$base" --stdout -1 > "$R3.mbox"
	git_ "$R3" reset -q --hard "$base"
}
sec_output() {
	bad_c > "$T/o.c"
	"$G" audit --no-cache -q "$T/o.c" >/dev/full 2>"$T/err"; rc=$?
	if [ $rc = 3 ] && grep -q "cannot write the output" "$T/err"; then ok "audit > /dev/full: exit 3, says so"
	else fail "audit > /dev/full: exit 3, says so" "exit $rc $(cat "$T/err")"; fi
	"$G" audit --no-cache -q --format sarif "$T/o.c" 2>"$T/err" | head -c 0; rc=${PIPESTATUS[0]}
	if [ $rc = 3 ] && grep -q "Broken pipe" "$T/err"; then ok "SARIF to a closed pipe: exit 3 (EPIPE), not SIGPIPE"
	else fail "SARIF to a closed pipe: exit 3 (EPIPE), not SIGPIPE" "exit $rc $(cat "$T/err")"; fi
	"$G" audit --no-cache -q --format json "$T/o.c" >&- 2>"$T/err"; rc=$?
	expect_rc "audit with stdout closed: exit 3" 3 $rc "$(cat "$T/err")"

	small_series "$T/orepo"
	cp "$T/orepo.mbox" "$T/keep.mbox"
	"$G" review --tree "$T/orepo" -o "$T/orepo.mbox" "$T/orepo.mbox" >/dev/null 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && cmp -s "$T/orepo.mbox" "$T/keep.mbox" && grep -q "refusing to overwrite" "$T/err"; then
		ok "review -o X X: refused (exit 2), the input mbox intact"
	else fail "review -o X X: refused (exit 2), the input mbox intact" "exit $rc $(cat "$T/err")"; fi
	"$G" review --tree "$T/orepo" --format json -o "$T/review.json" "$T/orepo.mbox" >/dev/null 2>"$T/err"; rc=$?
	if [ $rc = 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/review.json" &&
		[ -z "$(ls "$T" | grep 'review.json.gfpaudit-')" ]; then ok "review -o FILE: written whole, no temporary left"
	else fail "review -o FILE: written whole, no temporary left" "exit $rc $(cat "$T/err")"; fi
	cp "$T/review.json" "$T/review.prev"
	printf 'From: x@example.org\nSubject: not a patch\n\nhello\n' > "$T/nopatch.mbox"
	"$G" review --tree "$T/orepo" --format json -o "$T/review.json" "$T/nopatch.mbox" >/dev/null 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && cmp -s "$T/review.json" "$T/review.prev" && [ -z "$(ls "$T" | grep 'review.json.gfpaudit-')" ]; then
		ok "review -o FILE: a failed run leaves the previous output intact"
	else fail "review -o FILE: a failed run leaves the previous output intact" "exit $rc $(cat "$T/err")"; fi
}

# ---- hook install --force never overwrites a saved hook ----
sec_hook() {
	local H=$T/hookrepo hooks
	mkdir -p "$H"; git init -q "$H"
	hooks=$H/.git/hooks
	printf '#!/bin/sh\necho first\n' > "$hooks/pre-commit"; chmod +x "$hooks/pre-commit"
	cp "$hooks/pre-commit" "$T/first"
	(cd "$H" && "$G" hook install --force >/dev/null 2>&1)
	(cd "$H" && "$G" hook install --force >/dev/null 2>"$T/err"); rc=$?
	if [ $rc = 0 ] && cmp -s "$T/first" "$hooks/pre-commit.gfpaudit-saved" && grep -q updated "$T/err"; then
		ok "hook install --force twice: the saved hook stays"
	else fail "hook install --force twice: the saved hook stays" "exit $rc $(cat "$T/err")"; fi
	# another tool put its own hook over ours: --force saves it next to the first
	printf '#!/bin/sh\necho second\n' > "$hooks/pre-commit"
	cp "$hooks/pre-commit" "$T/second"
	(cd "$H" && "$G" hook install --force >/dev/null 2>"$T/err"); rc=$?
	if [ $rc = 0 ] && cmp -s "$T/first" "$hooks/pre-commit.gfpaudit-saved" &&
		cmp -s "$T/second" "$hooks/pre-commit.gfpaudit-saved.1" && grep -q 'saved as .*pre-commit.gfpaudit-saved.1' "$T/err" &&
		grep -q '^# gfpaudit-hook: v1$' "$hooks/pre-commit"; then
		ok "hook install --force over a second foreign hook: both saved, neither overwritten"
	else fail "hook install --force over a second foreign hook: both saved, neither overwritten" "exit $rc $(cat "$T/err"; ls "$hooks")"; fi
}

# ---- control characters from mail and file names never reach the terminal raw ----
sec_escapes() {
	small_series "$T/erepo"
	# an escape sequence in the subject, and a hunk that cannot apply
	python3 - "$T/erepo.mbox" "$T/esc.mbox" <<'PY'
import sys
s = open(sys.argv[1]).read()
s = s.replace("Subject: [PATCH] foo: more", "Subject: [PATCH] foo: \x1b]0;pwned\x07\x1b[31mred")
s = s.replace("\n \treturn 0;\n", "\n \treturn 7;\n")
open(sys.argv[2], "w").write(s)
PY
	"$G" review --tree "$T/erepo" --format json "$T/esc.mbox" >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -q 'x1b\]0;pwned\\x07' "$T/err" && ! grep -q $'\x1b' "$T/err"; then
		ok "review: a subject's escape sequence is printed escaped (\\x1b)"
	else fail "review: a subject's escape sequence is printed escaped (\\x1b)" "exit $rc $(cat -v "$T/err")"; fi
	local odd=$T/$'odd\e[31m.c'
	printf 'garbage ( {\n' > "$odd"
	"$G" audit --no-cache -q "$odd" >"$T/out" 2>"$T/err"
	if grep -q 'odd\\x1b\[31m.c' "$T/err" && ! grep -q $'\x1b' "$T/err"; then ok "audit: a file name's escape sequence is printed escaped"
	else fail "audit: a file name's escape sequence is printed escaped" "$(cat -v "$T/err")"; fi
	bad_c > "$T/odd2"$'\e'"[1m.c"
	"$G" audit --no-cache -q "$T/odd2"$'\e'"[1m.c" >"$T/out" 2>"$T/err"
	if grep -q 'odd2\\x1b\[1m.c:[0-9]*:[0-9]*: warning' "$T/out" && ! grep -q $'\x1b' "$T/out"; then ok "audit: findings in such a file: the name escaped on stdout"
	else fail "audit: findings in such a file: the name escaped on stdout" "$(cat -v "$T/out")"; fi
}

# ---- forged cache rows are not trusted ----
sec_forged() {
	bad_c > "$T/f.c"
	"$G" audit -q --cache "$T/forge.sqlite" "$T/f.c" >"$T/out1" 2>&1; rc=$?
	expect_rc "forged: the first run reports the finding" 1 $rc "$(cat "$T/out1")"
	# findings removed from the stored result, by hand
	python3 - "$T/forge.sqlite" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT rowid, result FROM results").fetchall()
assert rows, "no row stored"
for rowid, text in rows:
    r = json.loads(text)
    r["findings"] = []
    db.execute("UPDATE results SET result=? WHERE rowid=?", (json.dumps(r), rowid))
db.commit()
PY
	"$G" audit -q --cache "$T/forge.sqlite" "$T/f.c" >"$T/out2" 2>&1; rc=$?
	if [ $rc = 1 ] && cmp -s "$T/out1" "$T/out2"; then ok "forged: a row with its findings removed is analyzed again"
	else fail "forged: a row with its findings removed is analyzed again" "exit $rc $(cat "$T/out2")"; fi
	# the row written again is trusted again: the third run parses nothing
	"$G" audit -v --cache "$T/forge.sqlite" "$T/f.c" >"$T/out3" 2>"$T/err"; rc=$?
	if [ $rc = 1 ] && grep -q "1 from the cache" "$T/err"; then ok "forged: the row analyzed again is reused next time"
	else fail "forged: the row analyzed again is reused next time" "exit $rc $(cat "$T/err")"; fi
	# a row from another version of the tool is not used either
	python3 -c 'import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); db.execute("UPDATE origins SET producer=?", ("0.0-other",)); db.commit()' "$T/forge.sqlite"
	"$G" audit -v --cache "$T/forge.sqlite" "$T/f.c" >"$T/out3" 2>"$T/err"; rc=$?
	if [ $rc = 1 ] && grep -q "0 from the cache" "$T/err"; then ok "forged: a row another version wrote is analyzed again"
	else fail "forged: a row another version wrote is analyzed again" "exit $rc $(cat "$T/err")"; fi
}

# T80_ONLY=REGEX runs only the sections whose name matches
for sec in $(declare -F | awk '$3 ~ /^sec_/ { print $3 }'); do
	[ -n "${T80_ONLY:-}" ] && ! [[ $sec =~ ${T80_ONLY} ]] && continue
	$sec
done
finish
