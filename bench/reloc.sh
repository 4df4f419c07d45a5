#!/usr/bin/env bash
# Hunk relocation: a mail of H one-line hunks against a text file of N lines,
# reviewed on a tree that has two more lines on top (every hunk must move).
# Usage: bench/reloc.sh [N H]...  (default: 60000 1000  200000 5000  400000 10000)
# Prints mail size, user and wall seconds of `gfpaudit review` per size.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
W=$(mktemp -d /tmp/gfpaudit-reloc.XXXXXX)
trap 'rm -rf "$W"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@example.org
[ $# -ge 2 ] || set -- 60000 1000 200000 5000 400000 10000
while [ $# -ge 2 ]; do
	(cd "$W" && rm -rf repo && python3 "$here/reloc-gen.py" "$1" "$2" p.mbox)
	/usr/bin/time -f "%U s user, %e s wall" "$G" review --tree "$W/repo" --format json "$W/p.mbox" >/dev/null 2>"$W/err" || true
	echo "N=$1 lines, H=$2 hunks, mail $(stat -c %s "$W/p.mbox") bytes: $(tail -1 "$W/err")"
	shift 2
done
