#!/usr/bin/env python3
"""List candidate history rows: diff hunks between two kernel trees where an
allocation moved to the kvmalloc/vmalloc family, gained __GFP_NORETRY, lost
direct reclaim, got an order or size cap, or got a smaller-order fallback.

  bench/accuracy/mine-history.py OLD_TREE NEW_TREE [DIR...] > candidates.tsv

Output columns: kind, file, old line, new line, diff's function context,
allocators removed, allocators added ("order-cap?": a new min()/clamp() or
range check just before an allocation the hunk leaves unchanged).  Only a starting point: most hunks are
refactors; every row kept in history.tsv was read in both trees.  Takes
several minutes (diff over every .c file both trees have).  Stdlib only.
"""
import filecmp
import os
import re
import subprocess
import sys

DIRS = ["mm", "fs", "net", "drivers", "kernel", "lib", "block", "sound", "crypto",
        "security", "io_uring", "ipc", "virt", "arch/x86"]
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
OLD = re.compile(r"^((devm_)?k[mzc]?alloc\w*|kcalloc\w*|kmalloc_array\w*|krealloc\w*|__?get_free_pages?"
                 r"|get_zeroed_page|alloc_pages\w*|__alloc_pages\w*|folio_alloc\w*|memdup_user\w*"
                 r"|kmemdup\w*|alloc_page|dma_alloc_coherent|kmem_alloc\w*|kmem_zalloc\w*)$")
NEW = re.compile(r"^(kv\w*alloc\w*|kvmemdup\w*|kvrealloc\w*|kvcalloc|v\w*alloc\w*|vmemdup\w*|__vmalloc\w*)$")
NOTNEW = ("vma", "vm_area", "vmap")
CAP = re.compile(r"\b(min|min_t|clamp|clamp_t|min3)\s*\(|PAGE_ALLOC_COSTLY_ORDER|KMALLOC_MAX_SIZE")
LOWER = re.compile(r"order--|--order|order\s*-=|>>=\s*1|/=\s*2")
NOWAIT = re.compile(r"GFP_NOWAIT|GFP_ATOMIC|~__GFP_DIRECT_RECLAIM|__GFP_KSWAPD_RECLAIM")


def calls(lines, pred):
    return {n for l in lines for n in CALL.findall(l) if pred(n) and "noprof" not in n}


def classify(rem, add):
    R, A = "\n".join(rem), "\n".join(add)
    ro = calls(rem, OLD.match)
    an = calls(add, lambda n: NEW.match(n) and not n.startswith(NOTNEW))
    ao = calls(add, OLD.match)
    kinds = []
    if ro and an:
        kinds.append("kvmalloc")
    if "__GFP_NORETRY" in A and "__GFP_NORETRY" not in R and (ao or an):
        kinds.append("noretry")
    if re.search(r"GFP_KERNEL|GFP_NOFS|GFP_NOIO", R) and NOWAIT.search(A) and (ro or ao):
        kinds.append("no-reclaim")
    if CAP.search(A) and not CAP.search(R) and (ro & ao):
        kinds.append("order-cap")
    if LOWER.search(A) and not LOWER.search(R) and (ao or an):
        kinds.append("fallback")
    return kinds, ro, an | ao


def bound_added(lines):
    """A new cap or range check on the way to an unchanged allocation (order-cap?)."""
    last = max((i for i, l in enumerate(lines) if l[:1] == "+"), default=-1)
    if last < 0:
        return set()
    add = "\n".join(l[1:] for l in lines if l[:1] == "+")
    capped = CAP.search(add) or (re.search(r"^\s*if\s*\(.*[^-]>=?\s*\w", add, re.M)
                                 and re.search(r"-E(INVAL|2BIG|NOMEM|OVERFLOW|MSGSIZE|IO)\b|goto", add))
    if not capped:
        return set()
    return calls([l[1:] for l in lines[last + 1:] if l[:1] == " "], OLD.match)


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    a, b = sys.argv[1], sys.argv[2]
    dirs = sys.argv[3:] or DIRS
    for d in dirs:
        for root, _, files in os.walk(os.path.join(a, d)):
            for f in sorted(files):
                if not f.endswith(".c"):
                    continue
                pa = os.path.join(root, f)
                rel = os.path.relpath(pa, a)
                pb = os.path.join(b, rel)
                if not os.path.exists(pb) or filecmp.cmp(pa, pb, shallow=False):
                    continue
                out = subprocess.run(["diff", "-U3", "-p", pa, pb], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL).stdout.decode(errors="replace")
                hunk = None

                def flush(h):
                    if not h:
                        return
                    rem = [l[1:] for l in h["l"] if l[:1] == "-"]
                    add = [l[1:] for l in h["l"] if l[:1] == "+"]
                    kinds, ro, an = classify(rem, add)
                    if not kinds:
                        after = bound_added(h["l"])
                        if after:
                            kinds, an = ["order-cap?"], after
                    if kinds:
                        print("\t".join([",".join(kinds), rel, str(h["a"]), str(h["b"]), h["fn"],
                                         ",".join(sorted(ro)), ",".join(sorted(an))]))
                for line in out.splitlines():
                    if line.startswith("@@"):
                        flush(hunk)
                        m = re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@ ?(.*)", line)
                        hunk = {"a": int(m.group(1)), "b": int(m.group(2)), "fn": m.group(3)[:60], "l": []}
                    elif hunk is not None and line[:1] in "+- " and not line.startswith(("---", "+++")):
                        hunk["l"].append(line)
                flush(hunk)
    return 0


if __name__ == "__main__":
    sys.exit(main())
