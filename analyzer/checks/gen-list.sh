#!/bin/sh
# The registration list, generated: one CHECK(name) line per
# `const struct check check_<name> = {` in the files given (the rules under
# analyzer/checks/), sorted by the check's `.rank` (report order).  A rule
# without a rank, or two rules with one rank, stop the build.
# Usage: gen-list.sh FILE.c... > checks.inc
set -eu
ranked=$(awk '
	/^const struct check check_[A-Za-z0-9_]+ = \{/ {
		name = $4; sub(/^check_/, "", name); want = 1; where = FILENAME; next
	}
	want && /^\t\.rank = [0-9]+,/ {
		r = $3; sub(/,/, "", r)
		if (r in seen) { printf "%s: rank %s is also %s'"'"'s\n", where, r, seen[r] > "/dev/stderr"; bad = 1 }
		seen[r] = name; print r, name; want = 0; next
	}
	want && /^};/ { printf "%s: check_%s has no .rank\n", where, name > "/dev/stderr"; bad = 1; want = 0 }
	END { exit bad }
' "$@")
printf '%s\n' "$ranked" | sort -n | awk '{ print "CHECK(" $2 ")" }'
