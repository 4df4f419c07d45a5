# Small assertion helpers for shell suites: source it, call ok/fail/expect_*,
# end with `finish` (prints "N passed, N failed" and sets the exit code).
pass=0 failn=0 skipn=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
skip() { skipn=$((skipn + 1)); echo "skip $1"; }
fail() { failn=$((failn + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/     /'; }
# expect_rc NAME WANT GOT [output]
expect_rc() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1 (exit $3, want $2)" "${4:-}"; fi; }
# expect_grep NAME PATTERN TEXT
expect_grep() { if printf '%s' "$3" | grep -qE -- "$2"; then ok "$1"; else fail "$1 (no /$2/)" "$3"; fi; }
expect_nogrep() { if printf '%s' "$3" | grep -qE -- "$2"; then fail "$1 (unexpected /$2/)" "$3"; else ok "$1"; fi; }
finish() { echo "$pass passed, $failn failed, $skipn skipped"; [ "$failn" = 0 ]; }
