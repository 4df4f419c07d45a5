#!/usr/bin/env bash
# A warm whole-tree audit after N files changed, in place, then put back
# (content and times: `cp -p`): the "one-file change" and "1 % touched"
# figures of issues 14 and 20 against an existing cache.  The files are
# every k-th of the sorted list of files with sites in the cold run's JSON.
# Usage: bench/touch-run.sh GFPAUDIT KDIR CACHE COLD_JSON N OUT_PREFIX
# Prints the run's wall/RSS and its facts line; OUT_PREFIX.json/.err kept.
# The comment names the time, so no two runs touch a file the same way (a
# cache that saw one touch would answer the next from its rows).  With
# GFPAUDIT_PROFILE=1 the main process's phases are printed too.
set -eu
G=$1 K=$2 C=$3 J=$4 N=$5 O=$6
mapfile -t files < <(python3 - "$J" "$N" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
fs = sorted({s["file"] for s in d.get("sites", [])})
step = max(1, len(fs) // n)
print("\n".join(fs[::step][:n]))
PY
)
B=$(mktemp -d)
restore() { for f in "${files[@]}"; do [ -f "$B/$(echo "$f" | tr / _)" ] && cp -p "$B/$(echo "$f" | tr / _)" "$K/$f"; done; rm -rf "$B"; }
trap restore EXIT
for f in "${files[@]}"; do
	cp -p "$K/$f" "$B/$(echo "$f" | tr / _)"
	printf '/* gfpaudit bench: touched %s */\n' "$(date +%s.%N)" >> "$K/$f"
done
echo "touched ${#files[@]} files (first: ${files[0]})"
/usr/bin/time -f "wall %e s, max RSS %M KB, user %U s, sys %S s" "$G" audit -v --tree "$K" --format json --sites -q -j2 \
	--cache "$C" "$K" > "$O.json" 2> "$O.err" || true
grep -E '^gfpaudit: [0-9]+ files:|facts:|^wall|^phase:' "$O.err"
