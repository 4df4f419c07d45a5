"""Assertions for the Python test scripts, the counterpart of assert.sh:
check() prints one "ok"/"FAIL" line, finish() the "N passed, N failed" line
tests/run-all.sh adds up and exits (0 when nothing failed).  A script
imports it with sys.path.insert(0, <tests/lib>)."""
import sys

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok   " + name)
    else:
        failed += 1
        print("FAIL " + name + ("\n     " + detail if detail else ""))
    return cond


def finish():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
