#!/usr/bin/env bash
# Parse errors are never silent: an error inside a function that allocates
# makes the file "partially analyzed" (JSON problems, the summary, exit 3
# when nothing else is found); errors that hide nothing (a stray top-level
# line after the last function) keep the file clean.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$here/../gfpaudit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A costly allocation after a statement clang rejects (an undeclared
# macro-like call the kernel tree would have defined), in the same function.
cat > "$tmp/hidden.c" <<'C'
#include <linux/gfp.h>

struct ring {
	struct page *pages;
	int order;
};

static int ring_grow(struct ring *r)
{
	RING_LOCK_ASSERT(r) r;
	r->pages = alloc_pages(GFP_KERNEL, 5);
	if (!r->pages)
		return -12;
	return 0;
}
C
# The same shape whose error sits outside every function and hides nothing.
cat > "$tmp/harmless.c" <<'C'
#include <linux/gfp.h>

static struct page *one(void)
{
	return alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN, 0);
}

MODULE_TRAILER("x") bad
C
# An allocating function whose declarator clang rejects is dropped whole.
cat > "$tmp/dropped.c" <<'C'
#include <linux/gfp.h>

static __unknown_attr struct page *grab(void)
{
	return alloc_pages(GFP_KERNEL, 6);
}
C

"$G" audit -q --format json "$tmp/hidden.c" > "$tmp/h.json" 2>"$tmp/h.err"; rc=$?
summary=$(python3 - "$tmp/h.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = [x for x in d["problems"] if x["file"].endswith("hidden.c")]
print("problems", len(p), p[0]["status"] if p else "-", p[0].get("function") if p else "-",
      "partial", d["files"].get("partial"))
PY
)
expect_grep "error before a costly call: listed as partial with its function" \
	"^problems 1 partial ring_grow partial 1$" "$summary"
if grep -q '"rule"' "$tmp/h.json"; then
	expect_rc "findings still reported where the parse allows" 1 "$rc"
else
	expect_rc "partial and nothing found: exit 3, never clean" 3 "$rc"
fi
out=$("$G" audit "$tmp/hidden.c" 2>&1 >/dev/null)
expect_grep "stderr names the partial file" "hidden.c: partially analyzed: 'ring_grow' allocates" "$out"
expect_grep "summary counts it" "1 partially analyzed" "$out"
expect_grep "summary names the top error cause" "top parse errors: 1 x " "$out"

"$G" audit -q --disable costly-no-fallback,costly-no-noretry "$tmp/hidden.c" >/dev/null 2>&1; rc=$?
expect_rc "partial, findings off: exit 3, not 0" 3 "$rc"

"$G" audit -q "$tmp/harmless.c" >/dev/null 2>"$tmp/e2"; rc=$?
expect_rc "an error that hides no allocation: clean" 0 "$rc" "$(cat "$tmp/e2")"

"$G" audit -q --format json "$tmp/dropped.c" > "$tmp/d.json" 2>/dev/null; rc=$?
st=$(python3 -c "import json; d=json.load(open('$tmp/d.json')); print([p['status'] for p in d['problems']])")
expect_grep "a dropped allocating function: partial, not clean" "partial" "$st"
[ "$rc" != 0 ]; expect_rc "dropped function: never exit 0" 0 "$?"

# check: the staged file with the hidden error (and no finding) is a
# warning, not silence
mkdir "$tmp/repo"
(
	cd "$tmp/repo" && git init -q . && git config user.email t@example.org && git config user.name t &&
	printf 'int base;\n' > base.c && git add base.c && git commit -qm base &&
	sed 's/GFP_KERNEL, 5)/GFP_KERNEL, 0)/' "$tmp/hidden.c" > ring.c && git add ring.c
) >/dev/null 2>&1
err=$("$G" check --staged --repo "$tmp/repo" 2>&1 >/dev/null)
expect_grep "check: a warning names the partial file" "ring.c: warning: partially analyzed: 'ring_grow'" "$err"

# review, b4: a patch that leaves the file partial is a warn, never a pass
(
	cd "$tmp/repo" && git commit -qm "ring: grow" && git format-patch -q -1 --stdout HEAD > "$tmp/p.eml"
) >/dev/null 2>&1
"$G" review --format b4 --tree "$tmp/repo" --base HEAD~1 < "$tmp/p.eml" > "$tmp/b4.json" 2>/dev/null
st=$(python3 -c "import json; print(' '.join(x['status'] for x in json.load(open('$tmp/b4.json'))))" 2>&1)
expect_grep "b4: the partial patch warns" "^warn$" "$st"

finish
