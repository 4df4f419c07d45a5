#!/usr/bin/env bash
# The cost of the fact base and its cache on a subtree (bench/facts-cache.md).
# Works on a hard-linked copy of KDIR (edits replace the link), never on
# KDIR itself.  Cold with facts and cold --no-facts alternate ROUNDS times
# (same load), then a warm run, then one-file changes.
#   KDIR=build/linux-6.12 SUB=drivers/net/ethernet/intel J=2 ROUNDS=2 bench/facts-cache.sh
#   CHANGE=path/in/tree.c          file to edit (comment appended; then SED applied)
#   SED='s/old/new/'               an edit that changes what the file stores
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
KDIR=${KDIR:-$root/build/linux-6.12}
SUB=${SUB:-drivers/net/ethernet/intel}
J=${J:-2}
ROUNDS=${ROUNDS:-2}
OUT=${OUT:-$root/build/bench-facts}
G=${GFPAUDIT:-$root/build/gfpaudit-run}
CHANGE=${CHANGE:-}
SED=${SED:-}
mkdir -p "$OUT"
tree="$OUT/tree"
if [ ! -d "$tree" ]; then
	cp -al "$(readlink -f "$KDIR")" "$tree" || exit 1
fi
log="$OUT/log.txt"
: > "$log"
# run NAME CACHE ARGS...: wall, user+sys of the process tree, and -v lines
run() {
	local name=$1 cache=$2; shift 2
	local t0=$(date +%s.%N)
	/usr/bin/time -f "%e %U %S" -o "$OUT/$name.time" nice "$G" audit -v -q --tree "$tree" --cache "$cache" \
		-j "$J" --format json "$@" "$tree/$SUB" > "$OUT/$name.json" 2> "$OUT/$name.err"
	local rc=$?
	read -r wall user sys < <(tail -1 "$OUT/$name.time")
	local wcpu=$(grep -o 'worker CPU [0-9.]*' "$OUT/$name.err" | awk '{s+=$3} END {print s+0}')
	local facts=$(grep '^gfpaudit: facts:' "$OUT/$name.err" | sed 's/^gfpaudit: //')
	local nf=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['findings']))" "$OUT/$name.json" 2>/dev/null)
	printf '%s rc=%s wall=%s cpu=%s worker_cpu=%s findings=%s | %s\n' "$name" "$rc" "$wall" \
		"$(echo "$user + $sys" | bc)" "$wcpu" "$nf" "$facts" | tee -a "$log"
}
# the PCH of the copy, once
"$G" audit -q --tree "$tree" --no-cache "$tree/$SUB/e100.c" > /dev/null 2>&1
for r in $(seq 1 "$ROUNDS"); do
	rm -f "$OUT/nofacts$r.sqlite"* "$OUT/facts$r.sqlite"*
	run "cold-nofacts-$r" "$OUT/nofacts$r.sqlite" --no-facts
	run "cold-facts-$r" "$OUT/facts$r.sqlite"
done
C="$OUT/facts$ROUNDS.sqlite"
run warm-facts "$C"
run warm-facts-2 "$C"
run warm-nofacts "$OUT/nofacts$ROUNDS.sqlite" --no-facts
if [ -n "$CHANGE" ]; then
	f="$tree/$CHANGE"
	cp "$f" "$f.bench" && printf '/* bench: touched */\n' >> "$f.bench" && mv "$f.bench" "$f"
	run touch-comment-facts "$C"
	run touch-comment-nofacts "$OUT/nofacts$ROUNDS.sqlite" --no-facts
	if [ -n "$SED" ]; then
		cp "$f" "$f.bench" && sed -i "$SED" "$f.bench" && mv "$f.bench" "$f"
		run touch-store-facts "$C"
		run touch-store-nofacts "$OUT/nofacts$ROUNDS.sqlite" --no-facts
	fi
	# put the file back as it was (the copy's link is gone: a plain copy)
	cp "$(readlink -f "$KDIR")/$CHANGE" "$f"
fi
