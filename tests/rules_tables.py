#!/usr/bin/env python3
"""The Coccinelle rules and the C analyzer know the same allocators (issue 17
item 6): rules/common.py carries analyzer/data/allocators.tbl's table lines
as rules/sync-common.py copies them, and each rules/*.cocci the part of
common.py its own Python uses, exactly as that script cuts it (a hand edit
or a stale copy fails); every allocator of the table (and of
common.py's _RULES_ONLY macros) has its parameters in _PARAMS, and every
argument role of its line names one of them; every API a rule matches
(the identifier lists of rules/*.cocci) is in that table.  Prints one
"ok"/"FAIL" line per check and "N passed, N failed".
Usage: rules_tables.py ROOT"""
import ast, importlib.util, os, re, sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from checks import check, finish  # noqa: E402

spec = importlib.util.spec_from_file_location("sync_common", os.path.join(root, "rules", "sync-common.py"))
sync = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sync)


tbl = [l.rstrip("\n") for l in open(os.path.join(root, "analyzer", "data", "allocators.tbl"))
       if not l.startswith("#") and l.strip()]
src = open(os.path.join(root, "rules", "common.py")).read()
m = re.search(r'^# >>> allocators\.tbl\n_ALLOCATORS_TBL = """\n(.*?)"""\n# <<< allocators\.tbl$', src, re.S | re.M)
copy = m.group(1).splitlines() if m else None
check("rules/common.py carries allocators.tbl's %d table lines (rules/sync-common.py)" % len(tbl),
      copy == tbl, "differs: %s" % sorted(set(tbl) ^ set(copy or [])))

# the shared block of each rule: what sync-common.py cuts for it
for f in sorted(os.listdir(os.path.join(root, "rules"))):
    if not f.endswith(".cocci"):
        continue
    text = open(os.path.join(root, "rules", f)).read()
    m = re.search(r"^# >>> gfpaudit common.*?\n(.*?)^# <<< gfpaudit common", text, re.S | re.M)
    want = sync.block(src, text)
    check("%s: its python block is what rules/sync-common.py cuts from rules/common.py (%d of %d lines)"
          % (f, want.count("\n"), src.count("\n")), m is not None and m.group(1) == want,
          "run rules/sync-common.py" if m else "no shared-block markers")
    # independently of the cut: every top-level name of common.py that the
    # rule or its block reads is defined in the block
    def top(code):
        d = set()
        for n in ast.parse(code).body:
            if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
                d.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                d |= {(a.asname or a.name).split(".")[0] for a in n.names}
            elif isinstance(n, (ast.Assign, ast.AugAssign)):
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    d |= {x.id for x in ast.walk(t) if isinstance(x, ast.Name)}
        return d
    if m:
        reads = set(x.id for x in ast.walk(ast.parse(m.group(1))) if isinstance(x, ast.Name))
        for code in sync.rule_python(text):
            reads |= sync._read(code)
        lost = sorted((reads & top(src)) - top(m.group(1)))
        check("%s: its block defines every shared name the rule reads" % f, not lost, ", ".join(lost))

# the table part of common.py, without the helpers that need spatch
ns = {}
exec(src.split("\nclass Call:")[0], ns)
apis, params = ns["APIS"], ns["_PARAMS"]
lines = [l for l in (ns["_ALLOCATORS_TBL"] + ns["_RULES_ONLY"]).splitlines() if l.strip()]
bad = []
for l in lines:
    w = l.split()
    name, kind, roles = w[0], w[1], dict(r.split("=", 1) for r in w[2:]
                                        if r.split("=", 1)[0] not in ("adds", "pad", "align", "extra", "mem"))
    if name not in params:
        bad.append("%s: no _PARAMS entry" % name)
        continue
    p = [x.split() for x in params[name].split(",") if x.strip()]
    names = [x[-1] for x in p]
    for role, arg in roles.items():
        if arg.startswith("#"):
            if int(arg[1:]) >= len(names):
                bad.append("%s: %s=%s beyond its %d parameters" % (name, role, arg, len(names)))
        elif role == "gfp" and not re.match(r"^[a-z_]\w*$", arg):
            pass  # a constant mask (GFP_USER|__GFP_NOWARN)
        elif role == "order" and arg.isdigit():
            pass  # order 0 by definition
        elif arg not in names:
            bad.append("%s: %s=%s is not one of its parameters (%s)" % (name, role, arg, params[name]))
    if kind != "vmalloc" and "gfp" not in roles and sum(x[0] == "gfp_t" for x in p) != 1:
        bad.append("%s: no gfp role and not one gfp_t parameter (%s)" % (name, params[name]))
check("every allocator's roles name its parameters (%d allocators)" % len(lines), not bad, "; ".join(bad))
extra = sorted(set(params) - set(l.split()[0] for l in lines))
check("_PARAMS lists no allocator the table does not have", not extra, ", ".join(extra))
check("APIS has every allocator of the table", set(apis) == set(l.split()[0] for l in lines),
      ", ".join(sorted(set(l.split()[0] for l in lines) ^ set(apis))))

# the APIs the rules match: identifier lists after the shared block
for f in sorted(os.listdir(os.path.join(root, "rules"))):
    if not f.endswith(".cocci"):
        continue
    smpl = open(os.path.join(root, "rules", f)).read().split("# <<< gfpaudit common", 1)[-1]
    used = set()
    for lst in re.findall(r"^identifier \w+ = \{([^}]*)\};", smpl, re.M):
        used |= set(re.findall(r"\w+", lst))
    unknown = sorted(n for n in used if n not in apis)
    check("%s: every API it matches is in the allocator table (%d)" % (f, len(used)), not unknown,
          "not in allocators.tbl or _RULES_ONLY: " + ", ".join(unknown))
finish()
