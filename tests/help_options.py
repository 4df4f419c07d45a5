#!/usr/bin/env python3
"""Help that tells the truth (issue 19 item 5): for every command, the
options its option table (cli.h CLI_* rows) or getopt_long table
(analyzer/cmd_NAME.c) and optstring accept
are the options its --help lists, both ways; 'gfpaudit help NAME' prints the
same text; its manual page (man/gfpaudit-NAME.1) lists them too; every
environment variable the sources read (getenv, test hooks GFPAUDIT_TEST_*
aside) is in man/gfpaudit.1.  Prints one "ok"/"FAIL" line per check and
"N passed, N failed".  Usage: help_options.py GFPAUDIT ROOT"""
import glob, os, re, subprocess, sys

gfpaudit, root = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from checks import check, finish  # noqa: E402


def run(*args):
    p = subprocess.run([gfpaudit, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def shared_rows():
    """The option rows several commands share: cli.h's CLI_*_OPTIONS(...)
    macros, name -> the text of their rows."""
    hdr = open(os.path.join(root, "include", "gfpaudit", "cli.h")).read()
    rows = {}
    for m in re.finditer(r'#define (CLI_[A-Z_]+_OPTIONS)\([^)]*\)((?:[^\n]*\\\n)*[^\n]*)', hdr):
        rows[m.group(1)] = m.group(2)
    return rows


def parsed_options(src):
    """Long options of the getopt_long table, short ones of its optstring,
    and for a command without getopt (cc) the option literals it compares."""
    for name, body in shared_rows().items():
        if re.search(r'\b%s\(' % name, src):
            src += "\n" + body
    longs = set(re.findall(r'\{\s*"([a-z][a-z0-9-]*)",\s*(?:no|required|optional)_argument', src))
    shorts = set()
    for optstring in re.findall(r'getopt_long\(\s*argc,\s*argv,\s*"([^"]*)"', src):
        shorts |= set(c for c in optstring if c.isalnum())
    # an option table (cli.h): CLI_KIND(short, long, ...) rows, .alias names
    for s, l in re.findall(r'\bCLI_(?:[A-Z]+\(|OPT_\(CLI_OPT_[A-Z]+,)\s*(0|\'.\'),\s*(NULL|"[a-z][a-z0-9-]*")', src):
        if s != "0":
            shorts.add(s[1])
        if l != "NULL":
            longs.add(l.strip('"'))
    longs |= set(re.findall(r'\.alias = "([a-z][a-z0-9-]*)"', src))
    if re.search(r'\bCLI_HELP\(\)', src):
        longs.add("help")
        shorts.add("h")
    if not longs and not shorts:
        for lit in re.findall(r'str(?:n)?cmp\(argv\[i\], "(-[^"]+)"', src):
            if lit.startswith("--"):
                longs.add(lit[2:].rstrip("="))
            else:
                longs.add(lit)  # kept whole: -Wgfpaudit-error, -h
    return longs, shorts


def mentions(text, opt):
    if not opt.startswith("-"):
        opt = "--" + opt
    return re.search(r'(^|[^A-Za-z0-9-])' + re.escape(opt) + r'($|[^A-Za-z0-9-])', text, re.M) is not None


listed = run("--help")[1]
commands = re.findall(r'^  ([a-z]+) ', listed.split("commands:", 1)[1], re.M)
check("gfpaudit --help lists the commands", len(commands) >= 8, listed)
for cmd in commands:
    path = os.path.join(root, "analyzer", "cmd_%s.c" % cmd)
    if not os.path.exists(path):
        check("%s: analyzer/cmd_%s.c exists" % (cmd, cmd), False)
        continue
    src = open(path).read()
    longs, shorts = parsed_options(src)
    rc, helptext = run(cmd, "--help")
    check("%s --help exits 0" % cmd, rc == 0, helptext[-300:])
    rc2, viahelp = run("help", cmd)
    check("'gfpaudit help %s' is '%s --help'" % (cmd, cmd), rc2 == 0 and viahelp == helptext)
    manpath = os.path.join(root, "man", "gfpaudit-%s.1" % cmd)
    man = re.sub(r'\\f[BIR]', '', open(manpath).read()).replace("\\-", "-") if os.path.exists(manpath) else ""
    check("%s: man/gfpaudit-%s.1 exists" % (cmd, cmd), bool(man))
    missing = sorted(o for o in longs if not mentions(helptext, o))
    check("%s --help lists every long option it parses (%d)" % (cmd, len(longs)), not missing,
          "not in --help: " + ", ".join(missing))
    missing = sorted(c for c in shorts if not mentions(helptext, "-" + c))
    check("%s --help lists every short option it parses (%d)" % (cmd, len(shorts)), not missing,
          "not in --help: " + ", ".join("-" + c for c in missing))
    missing = sorted(o for o in longs if not mentions(man, o)) + sorted("-" + c for c in shorts if not mentions(man, "-" + c))
    check("%s: the manual page lists every option it parses" % cmd, not missing, "not in the page: " + ", ".join(missing))
    # the other way: an option line of the help names only parsed options
    claimed = set()
    for line in helptext.splitlines():
        m = re.match(r'^  (-[^ ].*?)(?:  |$)', line)
        if m:
            claimed |= set(re.findall(r'(?:^|[ ,])--([a-z][a-z0-9-]*)', m.group(1)))
    if cmd == "cc":
        claimed = {c if c.startswith("-") else c for c in claimed}
        extra = sorted(c for c in claimed if c not in longs and "-" + c not in longs and c != "help")
    else:
        extra = sorted(c for c in claimed if c not in longs)
    check("%s --help lists no option it does not parse" % cmd, not extra, "listed, not parsed: " + ", ".join(extra))
    rc, out = run(cmd, "--no-such-option-x")
    check("%s rejects an unknown option (exit 2)" % cmd, rc == 2, out[-200:])

envs = set()
for path in glob.glob(os.path.join(root, "analyzer", "**", "*.c"), recursive=True):
    envs |= set(re.findall(r'getenv\("([A-Z_]+)"\)', open(path).read()))
envs = sorted(e for e in envs if not e.startswith("GFPAUDIT_TEST_"))
page = open(os.path.join(root, "man", "gfpaudit.1")).read().replace("\\-", "-")
missing = [e for e in envs if not re.search(r'(^|[^A-Z_])' + e + r'($|[^A-Z_])', page)]
check("gfpaudit.1 lists every environment variable read (%d)" % len(envs), not missing, "missing: " + ", ".join(missing))
finish()
