#!/usr/bin/env python3
"""No function over 120 lines (issue 17: "Done when"), but the ones listed
in LONG below, each with the length it had when listed (one that grew is
noted), and one that gets to 120 lines or fewer must leave the list.  A
function is counted from the line its declaration starts on to its closing
brace, in the kernel style the tree is written in (the body's braces in
column 0).  Prints the functions over the limit (-v: every listed one too)
and "N passed, N failed".  Usage: function_length.py ROOT [-v]"""
import glob, os, re, sys

LIMIT = 120
# file:function -> (lines now, what it is).  Shrink, never add.
LONG = {
    "analyzer/model/csrc.c:parse_stmt": (157, "exempt: a per-kind statement switch (one branch per CS_* kind)"),
}


def functions(path):
    """(name, first line, number of lines) of the functions of a C file."""
    lines = open(path, errors="replace").read().split("\n")
    start = None
    for i, l in enumerate(lines):
        if l == "{" and i > 0:
            j = i - 1
            while j > 0 and not re.match(r"^[A-Za-z_]", lines[j]):
                j -= 1  # the declaration's continuation lines
            m = re.search(r"([A-Za-z_]\w*)\s*\(", lines[j])
            start = (m.group(1) if m else "?", j)
        elif l == "}" and start:
            yield start[0], start[1] + 1, i - start[1] + 1
            start = None


root = sys.argv[1]
verbose = "-v" in sys.argv[2:]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from checks import check, finish  # noqa: E402


seen = {}
for path in sorted(glob.glob(os.path.join(root, "analyzer", "**", "*.c"), recursive=True)):
    rel = os.path.relpath(path, root)
    for name, line, n in functions(path):
        seen["%s:%s" % (rel, name)] = (n, line)
over = sorted((k, v) for k, v in seen.items() if v[0] > LIMIT)
new = ["%s:%d (%d lines)" % (k, v[1], v[0]) for k, v in over if k not in LONG]
check("no function over %d lines but the %d listed in tests/function_length.py" % (LIMIT, len(LONG)),
      not new, "split these: " + "; ".join(new))
# growing is said, not failed: others change these functions while they
# are being split; update the number when it is on purpose
for k in LONG:
    if k in seen and seen[k][0] > LONG[k][0]:
        print("note %s grew: %d lines, listed at %d" % (k, seen[k][0], LONG[k][0]))
gone = [k for k in LONG if k not in seen or seen[k][0] <= LIMIT]
check("every listed function is still over %d lines" % LIMIT, not gone,
      "remove from LONG in tests/function_length.py: " + ", ".join(gone))
if verbose:
    for k, v in over:
        print("     %4d %s:%d%s" % (v[0], k, v[1], "  (%s)" % LONG[k][1] if k in LONG else ""))
finish()
