#!/usr/bin/env python3
"""The call graph between analyzer/ folders must have no cycle either.

The include graph (include_cycles.py) can be clean while a folder still
calls up into another through a declaration of its own or a header both
share; this reads the built objects instead.  Each object under
OBJDIR/analyzer/ belongs to its folder ("top" for analyzer/*.o); a symbol
one object leaves undefined (nm "U") and another folder's object defines is
an edge between the two folders.  A callback handed down (fix_opts.reanalyze)
is no edge: the fix stage calls it through a pointer.

usage: call_cycles.py [OBJDIR]   (default build/obj) prints one line per
cycle and the symbols that make its edges, exits 1 when there is one, 2 when
there are no objects, 0 otherwise.
"""
import collections
import glob
import os
import subprocess
import sys


def folder(objdir, o):
    rel = os.path.relpath(o, os.path.join(objdir, "analyzer"))
    return os.path.dirname(rel) or "top"


def main():
    objdir = sys.argv[1] if len(sys.argv) > 1 else "build/obj"
    objs = sorted(glob.glob(os.path.join(objdir, "analyzer", "**", "*.o"), recursive=True))
    if not objs:
        print("call_cycles: no objects under %s/analyzer (run make)" % objdir)
        return 2
    defined, undefined = {}, collections.defaultdict(set)
    for o in objs:
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBR":
                defined[p[2]] = folder(objdir, o)
            elif len(p) == 2 and p[0] == "U":
                undefined[folder(objdir, o)].add(p[1])
    edges = collections.defaultdict(set)
    for f, syms in undefined.items():
        for s in syms:
            g = defined.get(s)
            if g and g != f:
                edges[(f, g)].add(s)
    graph = collections.defaultdict(set)
    for f, g in edges:
        graph[f].add(g)
    # strongly connected components (Tarjan): each one with more than one
    # folder is a cycle
    index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            c = []
            while True:
                w = stack.pop()
                on.discard(w)
                c.append(w)
                if w == v:
                    break
            if len(c) > 1:
                sccs.append(sorted(c))

    for v in sorted(set(graph) | {g for f, g in edges}):
        if v not in index:
            visit(v)
    for c in sccs:
        print("call cycle between folders: %s" % " ".join(c))
        for f in c:
            for g in c:
                if (f, g) in edges:
                    print("  %s -> %s: %s" % (f, g, " ".join(sorted(edges[(f, g)]))))
    return 1 if sccs else 0


if __name__ == "__main__":
    sys.exit(main())
