#!/usr/bin/env bash
# Runs every suite: the unit tests, then each tests/t[0-9]*.sh script in order.
# Each suite ends its output with "N passed, N failed[, N skipped]"; this adds
# them up and prints the total as the last line.  A suite without that line,
# or one that exits non-zero with no failed case, counts as one failure.
# Env: GFPAUDIT (binary), UNIT (unit test binary), KDIR (prepared kernel
# tree; t15 prepares it when missing, t60 skips what needs it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
export GFPAUDIT=${GFPAUDIT:-$here/../gfpaudit}
export KDIR=${KDIR:-$here/../build/linux-6.12}
total_pass=0 total_fail=0 total_skip=0
run_suite() {
	local name=$1; shift
	local log
	log=$(mktemp)
	echo "== $name"
	"$@" 2>&1 | tee "$log"
	local rc=${PIPESTATUS[0]}
	local line
	line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$name: no summary line (exit $rc): counted as 1 failure"
		total_fail=$((total_fail + 1))
	else
		local p f s
		p=$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')
		f=$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
		s=$(echo "$line" | grep -oE '[0-9]+ skipped' | grep -oE '[0-9]+' || true)
		total_pass=$((total_pass + p)); total_fail=$((total_fail + f)); total_skip=$((total_skip + ${s:-0}))
		if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			echo "$name: exit $rc with no failed case: counted as 1 failure"
			total_fail=$((total_fail + 1))
		fi
	fi
	rm -f "$log"
}
[ -n "${UNIT:-}" ] && run_suite unit "$UNIT"
for t in "$here"/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	run_suite "$(basename "$t" .sh)" bash "$t"
done
echo
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" = 0 ]
