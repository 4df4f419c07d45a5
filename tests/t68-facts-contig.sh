#!/usr/bin/env bash
# Contiguity across files, through the fact base (usage.h): osd.c hands its
# buffers to functions of xfer.c; cam_xfer() DMA-maps its parameter, so it
# publishes "contig:cam_xfer#1", and a buffer passed to it must be
# physically contiguous.  Alone osd.c cannot tell (contiguity unknown, a
# kvmalloc fix would be offered blind); with xfer.c the buffer is physical,
# the void function's degraded mode is its fallback (feature-off), and no
# kvmalloc fix is offered.  The cache answers the same warm; an edit of
# xfer.c that drops the mapping re-judges osd.c.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$root/tests/data/facts-contig" "$T/fc"
cd "$T/fc" || exit 1
export XDG_CACHE_HOME=$T/xdg

# site FILE.json FUNCTION -> "rule fallback contiguity kvmalloc-fix|no-kvmalloc"
site() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["findings"] if x["function"] == sys.argv[2]]
if not f:
    print("none")
    sys.exit()
f = f[0]
kv = any("kv" in (x.get("kind", "") + x.get("title", "") + x.get("diff", "")) for x in f.get("fixes", []))
print("%s %s %s %s" % (f["rule"], f["fallback"], f["contiguity"], "kvmalloc-fix" if kv else "no-kvmalloc"))
PY
}

"$G" audit --no-cache --fixes --format json -q osd.c > "$T/alone.json" 2>/dev/null
expect_grep "osd.c alone: the DMA buffer's contiguity is unknown" \
	'^costly-no-fallback none unknown kvmalloc-fix$' "$(site "$T/alone.json" cam_clear_osd)"

"$G" audit --no-cache --fixes --format json -q osd.c xfer.c > "$T/both.json" 2>/dev/null
expect_grep "with xfer.c: physical (cam_xfer maps it), the void function's degraded mode is the fallback" \
	'^costly-no-noretry feature-off physical no-kvmalloc$' "$(site "$T/both.json" cam_clear_osd)"
why=$(python3 -c "import json;d=json.load(open('$T/both.json'));print([f.get('contiguity_why') for f in d['findings'] if f['function']=='cam_clear_osd'])")
expect_grep "the evidence names the helper and its mapping" "reaches a physical use in 'cam_xfer' \\(xfer\\.c:9\\)" "$why"
expect_grep "a buffer cam_log() only writes: not physical" \
	'^costly-no-fallback none unknown' "$(site "$T/both.json" cam_clear_log)"

"$G" audit --cache "$T/c.sqlite" --format json -q osd.c xfer.c > "$T/cold.json" 2>/dev/null
"$G" audit --cache "$T/c.sqlite" --format json -q osd.c xfer.c > "$T/warm.json" 2>/dev/null
expect_grep "warm from the cache: the same answer" \
	'^costly-no-noretry feature-off physical' "$(site "$T/warm.json" cam_clear_osd)"
sed -i 's/dma_addr_t a = dma_map_single(c->dev, buf, len, DMA_TO_DEVICE);/dma_addr_t a = 0; (void)buf;/' xfer.c
"$G" audit --cache "$T/c.sqlite" --format json -q osd.c xfer.c > "$T/edited.json" 2>/dev/null
expect_grep "xfer.c no longer maps it: osd.c re-judged, no fallback again" \
	'^costly-no-fallback none unknown' "$(site "$T/edited.json" cam_clear_osd)"
finish
