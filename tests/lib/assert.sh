# Assertions for the shell suites: source it, call ok / fail / skip / check /
# expect_*, end with `finish` (prints "N passed, N failed, N skipped", the
# line tests/run-all.sh adds up, and exits: 0 when nothing failed).
# A skip is neither a pass nor a failure: use it for what this machine lacks,
# never for what the code does not do yet (that is a failure).
pass=0 failn=0 skipn=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
# fail NAME [DETAIL...]: each detail (text, may span lines) indented below
fail() {
	failn=$((failn + 1)); echo "FAIL $1"; shift
	local d
	for d in "$@"; do
		[ -n "$d" ] && printf '%s\n' "$d" | head -40 | sed 's/^/     /'
	done
	return 0
}
# skip NAME [WHY]
skip() { skipn=$((skipn + 1)); echo "skip $1${2:+: $2}"; }
# check NAME COMMAND...: ok when the command succeeds
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name"; fi; }
# expect_rc NAME WANT GOT [output]
expect_rc() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1 (exit $3, want $2)" "${4:-}"; fi; }
# expect_grep NAME PATTERN TEXT
expect_grep() { if printf '%s' "$3" | grep -qE -- "$2"; then ok "$1"; else fail "$1 (no /$2/)" "$3"; fi; }
expect_nogrep() { if printf '%s' "$3" | grep -qE -- "$2"; then fail "$1 (unexpected /$2/)" "$3"; else ok "$1"; fi; }
finish() { echo "$pass passed, $failn failed, $skipn skipped"; [ "$failn" = 0 ]; exit $?; }
