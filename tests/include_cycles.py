#!/usr/bin/env python3
"""The include graph between analyzer/ folders must have no cycle.

A folder is a directory under analyzer/ ("top" for analyzer/*.c itself).
A header in include/gfpaudit/ belongs to the folder of the .c file named
like it (cli.h -> analyzer/cli.c -> top, sites.h -> analyzer/model/sites.c
-> model), or to the folder HOME below says.  Every #include "..." of a .c, .cc or .h file is an edge from
its folder to the included file's folder; a cycle in that graph means two
folders need each other, and the pipeline no longer flows one way.

usage: include_cycles.py [ROOT]   prints one line per cycle (and the
includes that make it), exits 1 when there is one, 0 otherwise.
"""
import os
import re
import sys

# headers whose module is not a same-named .c file
HOME = {
    "apply.h": "vcs",       # vcs/apply.c (fix/apply.c is declared in fix.h)
    "check.h": "checks",
    "fixkind.h": "checks",  # the rules' fix plans; fix/ builds the edits
    "audit.h": "top",       # cmd_audit.c: the run audit and facts share
    "finding.h": "model",
    "frontend.h": "frontend",
    "mail.h": "mail",
    "order.h": "util",
    "store.h": "store",
    "source.h": "frontend",  # parse inputs and tree facts, without libclang
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of_source(root, path):
    rel = os.path.relpath(path, os.path.join(root, "analyzer"))
    parts = rel.split(os.sep)
    return "top" if len(parts) == 1 else parts[0]


def header_home(root, name):
    if name in HOME:
        return HOME[name]
    base = name[:-2]
    if os.path.exists(os.path.join(root, "analyzer", base + ".c")):
        return "top"
    homes = [d for d in sorted(os.listdir(os.path.join(root, "analyzer")))
             if os.path.exists(os.path.join(root, "analyzer", d, base + ".c"))]
    if len(homes) == 1:
        return homes[0]
    return None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    files = []  # (path, folder)
    for dirpath, _, names in os.walk(os.path.join(root, "analyzer")):
        for n in names:
            if n.endswith((".c", ".cc", ".h")):
                p = os.path.join(dirpath, n)
                files.append((p, folder_of_source(root, p)))
    inc = os.path.join(root, "include", "gfpaudit")
    unknown = []
    for n in sorted(os.listdir(inc)):
        if n.endswith(".h"):
            home = header_home(root, n)
            if home is None:
                unknown.append(n)
            else:
                files.append((os.path.join(inc, n), home))
    if unknown:
        print("no folder for include/gfpaudit/%s: name its module in HOME (tests/include_cycles.py)" % ", ".join(unknown))
        return 1
    edges = {}  # (from, to) -> [why]
    for path, home in files:
        text = open(path, encoding="utf-8", errors="replace").read()
        for target in INCLUDE.findall(text):
            if target.startswith("gfpaudit/"):
                name = os.path.basename(target)
                to = header_home(root, name)
            elif "/" in target:
                tp = os.path.normpath(os.path.join(os.path.dirname(path), target))
                if not tp.startswith(os.path.join(root, "analyzer") + os.sep):
                    continue
                to = folder_of_source(root, tp)
            else:
                continue  # a header next to the file: its own folder
            if to and to != home:
                edges.setdefault((home, to), []).append("%s: \"%s\"" % (os.path.relpath(path, root), target))
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    # one cycle per strongly connected component of more than one folder
    index, low, stack, on, comps = {}, {}, [], set(), []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    for comp in comps:
        print("include cycle between folders: %s" % " ".join(comp))
        for (a, b), why in sorted(edges.items()):
            if a in comp and b in comp:
                print("  %s -> %s: %s" % (a, b, "; ".join(why[:3]) + (" ..." if len(why) > 3 else "")))
    if not comps:
        print("no include cycle between %d folders (%d edges)" % (len(graph), len(edges)))
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main())
