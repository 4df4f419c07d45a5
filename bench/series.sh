#!/usr/bin/env bash
# Review cost against series length: a series of N patches, each changing
# one of 8 small driver files (a costly allocation in each), reviewed with
# `gfpaudit review --format json`.  Time should grow linearly with N (each
# patch analyzes the file it touches before and after; a blob analyzed once
# is not analyzed again).
# Usage: bench/series.sh [N]...  (default: 50 100 200)
# Prints N, mail size, user+sys CPU of the review and its children, wall.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
W=$(mktemp -d /tmp/gfpaudit-series.XXXXXX)
trap 'rm -rf "$W"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@example.org
[ $# -ge 1 ] || set -- 50 100 200
for n in "$@"; do
	R=$W/repo$n
	mkdir -p "$R/drivers/foo"
	git init -q "$R"
	for f in $(seq 0 7); do
		printf '#include <linux/gfp.h>\n#include <linux/slab.h>\n\nvoid *foo%d_table;\n\nint foo%d_init(void)\n{\n\tfoo%d_table = kmalloc(65536, GFP_KERNEL);\n\treturn foo%d_table ? 0 : -12;\n}\n' \
			$f $f $f $f > "$R/drivers/foo/f$f.c"
	done
	git -C "$R" add -A && git -C "$R" commit -qm base
	base=$(git -C "$R" rev-parse HEAD)
	for i in $(seq 1 "$n"); do
		f=$((i % 8))
		printf '/* change %d */\nint foo%d_c%d;\n' "$i" "$f" "$i" >> "$R/drivers/foo/f$f.c"
		git -C "$R" commit -qam "foo: change $i" -m "Signed-off-by: A <a@example.org>"
	done
	git -C "$R" format-patch -q --base="$base" --stdout "$base..HEAD" > "$W/s$n.mbox"
	git -C "$R" reset -q --hard "$base"
	/usr/bin/time -f "%U %S %e" "$G" review --tree "$R" --format json -q "$W/s$n.mbox" >"$W/out" 2>"$W/err" || true
	read -r u s e < <(tail -1 "$W/err")
	printf 'N=%d patches, mail %d bytes: %.1f s CPU (user+sys), %.1f s wall, %.3f s CPU a patch\n' \
		"$n" "$(stat -c %s "$W/s$n.mbox")" "$(echo "$u + $s" | bc)" "$e" "$(echo "($u + $s) / $n" | bc -l)"
done
