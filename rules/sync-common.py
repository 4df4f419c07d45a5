#!/usr/bin/env python3
"""Copy the shared Python of the Coccinelle rules into each rule.

1. analyzer/data/allocators.tbl (its table lines) goes into rules/common.py
   between the "# >>> allocators.tbl" and "# <<< allocators.tbl" lines.
2. Into the @initialize:python@ block of every rules/*.cocci, between the
   "# >>> gfpaudit common" and "# <<< gfpaudit common" lines, goes the part
   of rules/common.py that rule's own Python uses: its header comment and
   the top-level statements (with the comment lines above each) defining a
   name the rule's scripts or script constraints read, transitively.
   coccicheck runs one self-contained .cocci file at a time, so each file
   carries its own copy.

tests/rules_tables.py (from tests/t30-cocci.sh) calls block() and fails
when a copy differs from what it gives.  Standard library only.
Usage: rules/sync-common.py [--check]   (--check: write nothing, exit 1
when a file is not what this script would write)"""
import ast
import os
import re
import sys

BEGIN = "# >>> gfpaudit common (rules/common.py; edit there, then run rules/sync-common.py)"
END = "# <<< gfpaudit common"


def _names(node):
    """(defined, read) top-level names of one statement of common.py."""
    defined, read = set(), set()
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        defined.add(node.name)
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
    elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            defined |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            read.add(n.id)
    return defined, read - defined


def _segments(src):
    """The header (text before the first statement) and, per top-level
    statement, (text with the comment and blank lines above it, defined,
    read)."""
    lines = src.splitlines(keepends=True)
    body = ast.parse(src).body
    if not body:
        return src, []
    first = body[0].lineno - 1
    # the header ends at its first blank line: comments after it belong to
    # the first statement
    head_end = first
    for i in range(first):
        if not lines[i].strip():
            head_end = i + 1
            break
    segs, start = [], head_end
    for node in body:
        end = node.end_lineno
        d, r = _names(node)
        segs.append(("".join(lines[start:end]), d, r))
        start = end
    tail = "".join(lines[start:])
    if tail.strip():
        segs.append((tail, set(), set()))
    return "".join(lines[:head_end]), segs


def rule_python(text):
    """The Python a rule file runs outside the shared block: the bodies of
    its script rules and of its script constraints."""
    out = []
    lines = text.splitlines()
    skip = False
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith(BEGIN[:22]):
            skip = True
        elif l.startswith(END):
            skip = False
        elif re.match(r"@\s*(script|initialize|finalize):python", l):
            i += 1
            while i < len(lines) and lines[i].strip() != "@@":
                i += 1
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith("@"):
                if lines[i].startswith(BEGIN[:22]):
                    skip = True
                elif lines[i].startswith(END):
                    skip = False
                elif not skip and not lines[i].startswith("//"):
                    body.append(lines[i])
                i += 1
            out.append("\n".join(body))
            continue
        i += 1
    for m in re.finditer(r"script:python\s*\([^)]*\)\s*\{([^{}]*)\}", text):
        out.append(m.group(1).strip())
    return out


def _read(code):
    """Names a piece of the rule's Python reads (every identifier when it
    does not parse alone)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        try:
            tree = ast.parse(code.strip(), mode="eval")
        except SyntaxError:
            return set(re.findall(r"[A-Za-z_]\w*", code))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def block(common, rule_text):
    """The shared block for one rule: common.py's header and the statements
    that define what the rule reads, transitively, in common.py's order."""
    head, segs = _segments(common)
    want = set()
    for code in rule_python(rule_text):
        want |= _read(code)
    keep = [False] * len(segs)
    changed = True
    while changed:
        changed = False
        for i, (_, d, r) in enumerate(segs):
            # a statement defining nothing (a call, a loop) is kept when it
            # touches a kept name: it may fill it in
            if keep[i] or not (d & want if d else r & want):
                continue
            keep[i] = changed = True
            want |= r
    return head + "".join(s for (s, _, _), k in zip(segs, keep) if k)


def with_table(common, tbl):
    """common.py with the table lines of allocators.tbl between its markers."""
    rows = [l for l in tbl.splitlines() if l.strip() and not l.startswith("#")]
    out, skip = [], False
    for l in common.splitlines(keepends=True):
        if l.startswith("# >>> allocators.tbl"):
            out += [l, '_ALLOCATORS_TBL = """\n'] + [r + "\n" for r in rows] + ['"""\n']
            skip = True
            continue
        if l.startswith("# <<< allocators.tbl"):
            skip = False
        if not skip:
            out.append(l)
    return "".join(out)


def with_block(rule_text, blk):
    """rule_text with blk between its shared-block markers."""
    out, skip = [], False
    for l in rule_text.splitlines(keepends=True):
        if l.startswith(BEGIN[:22]):
            out += [BEGIN + "\n", blk]
            skip = True
            continue
        if l.startswith(END):
            skip = False
        if not skip:
            out.append(l)
    return "".join(out)


def main(argv):
    check = argv[1:] == ["--check"]
    here = os.path.dirname(os.path.abspath(__file__))
    stale = []

    def put(path, text):
        with open(path) as f:
            old = f.read()
        if old == text:
            return
        stale.append(path)
        if not check:
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)

    common_path = os.path.join(here, "common.py")
    with open(os.path.join(here, "..", "analyzer", "data", "allocators.tbl")) as f:
        tbl = f.read()
    with open(common_path) as f:
        common = with_table(f.read(), tbl)
    put(common_path, common)
    for name in sorted(os.listdir(here)):
        if name.endswith(".cocci"):
            path = os.path.join(here, name)
            with open(path) as f:
                text = f.read()
            put(path, with_block(text, block(common, text)))
    if check and stale:
        print("not in sync (run rules/sync-common.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
