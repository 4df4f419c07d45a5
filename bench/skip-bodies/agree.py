#!/usr/bin/env python3
"""Does `check` say the same with bodies blanked as without (issue 20)?

Each case is a throwaway repository holding one file of the prepared tree
(its path kept, so --tree parses it with that file's kbuild flags) with a
staged change.  `gfpaudit check --staged --tree KDIR --no-cache -j1` runs
twice per format, with and without --no-skip-bodies; the text output and
the exit code must be equal, and so must the JSON "new" and "fixed" lists
(fingerprints); the JSON "indirect" lists (findings outside the changed
functions, which a blanked run does not all look for) are counted apart.

Cases:
  history  the rows of bench/accuracy/history.tsv: the 6.1 version of the
           row's function (from OLD, Debian's linux-source-6.1) put into the
           6.12 file as HEAD, the 6.12 file staged (the upstream change of
           that function, in 6.12's context)
  synth    files of the tree with allocation calls, each edited five ways:
           `| __GFP_NORETRY` added to a mask, a size made 64 times larger,
           a new allocating function, __GFP_NOWARN dropped, and a callee's
           mask changed under a static caller
  whole    the files of history.tsv up to 3,000 lines: 6.1's file as HEAD,
           6.12's staged (whole-file diffs)

Usage: bench/skip-bodies/agree.py [--kdir K] [--old D] [--only REGEX] [-j N]
"""
import argparse, json, os, re, subprocess, sys, tempfile, shutil, concurrent.futures as cf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SYNTH_FILES = [
    "mm/filemap.c", "mm/util.c", "mm/vmalloc.c", "mm/slab_common.c", "mm/percpu.c",
    "fs/pstore/platform.c", "fs/pstore/ram.c", "fs/xfs/xfs_buf.c", "fs/ext4/mballoc.c",
    "fs/btrfs/scrub.c", "kernel/bpf/verifier.c", "kernel/fork.c", "lib/genalloc.c",
    "net/core/skbuff.c", "net/mac80211/tx.c", "net/netfilter/nft_set_pipapo.c",
    "drivers/tty/vt/vt.c", "drivers/block/zram/zcomp.c", "drivers/dma-buf/udmabuf.c",
    "drivers/hid/hid-core.c", "drivers/misc/mei/client.c", "fs/fuse/virtio_fs.c",
    "block/blk-mq.c", "sound/core/memalloc.c",
]

STRIP = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank_comments(src):
    """src with comments and literals replaced by spaces (newlines kept)."""
    return STRIP.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), src)


def functions(src):
    """(name, start, end) byte ranges of top-level function definitions."""
    code = blank_comments(src)
    out, depth, i, n = [], 0, 0, len(code)
    item = 0
    while i < n:
        c = code[i]
        if c == '#' and (i == 0 or code[code.rfind('\n', 0, i) + 1:i].strip() == ''):
            while True:  # a directive, continuation lines and all
                j = code.find('\n', i)
                if j < 0:
                    i = n
                    break
                if code[j - 1] != '\\':
                    i = j + 1
                    break
                i = j + 1
            if depth == 0:
                item = i
            continue
        if c == '{':
            if depth == 0:
                head = code[item:i]
                m = re.search(r'(\w+)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?:\w+(?:\([^()]*\))?\s*)*$', head)
                start = i
                if m and '=' not in head and not re.search(r'\b(struct|union|enum)\s+\w*\s*$', head):
                    fn = (m.group(1), item, None)
                else:
                    fn = None
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                if fn:
                    out.append((fn[0], fn[1], i + 1))
                item = i + 1
        elif c == ';' and depth == 0:
            item = i + 1
        i += 1
    return out


def find_fn(src, name):
    for f in functions(src):
        if f[0] == name:
            return f
    return None


def history_cases(kdir, old):
    cases = []
    with open(os.path.join(ROOT, "bench/accuracy/history.tsv")) as fh:
        rows = [l.rstrip('\n').split('\t') for l in fh][1:]
    seen = set()
    for r in rows:
        path, fn = r[2], r[3]
        p61, p612 = (path.split('>') + [path])[:2] if '>' in path else (path, path)
        f61, f612 = (fn.split('>') + [fn])[:2] if '>' in fn else (fn, fn)
        key = (p612, f612)
        if key in seen:
            continue
        seen.add(key)
        try:
            new = open(os.path.join(kdir, p612), errors='surrogateescape').read()
            o = open(os.path.join(old, p61), errors='surrogateescape').read()
        except OSError:
            continue
        a, b = find_fn(new, f612), find_fn(o, f61)
        if not a or not b:
            continue
        head = new[:a[1]] + o[b[1]:b[2]] + new[a[2]:]
        if head != new:
            cases.append(("history-%s-%s" % (r[0], f612), p612, head, new))
    return cases


def whole_file_cases(kdir, old, max_lines=3000):
    """The files of history.tsv below max_lines lines: 6.1's file as HEAD,
    6.12's staged (every upstream change between them at once)."""
    cases, seen = [], set()
    with open(os.path.join(ROOT, "bench/accuracy/history.tsv")) as fh:
        rows = [l.rstrip('\n').split('\t') for l in fh][1:]
    for r in rows:
        p61, p612 = (r[2].split('>') + [r[2]])[:2]
        if p612 in seen:
            continue
        seen.add(p612)
        try:
            new = open(os.path.join(kdir, p612), errors='surrogateescape').read()
            o = open(os.path.join(old, p61), errors='surrogateescape').read()
        except OSError:
            continue
        if new != o and new.count('\n') <= max_lines and o.count('\n') <= max_lines:
            cases.append(("whole-%s" % p612.replace('/', '_'), p612, o, new))
    return cases


def edit_noretry(src):
    m = re.search(r'\bGFP_KERNEL\b(?!\s*\|)', blank_comments(src)[src.find('{'):])
    if not m:
        return None
    i = src.find('{') + m.end()
    return src[:i] + " | __GFP_NORETRY" + src[i:]


def edit_size(src):
    code = blank_comments(src)
    m = re.search(r'\b(kmalloc|kzalloc|kvmalloc|kvzalloc|kmalloc_node|kzalloc_node)\s*\(', code)
    if not m:
        return None
    return src[:m.end()] + "64 * " + src[m.end():]


def edit_add_function(src):
    fns = functions(src)
    if not fns:
        return None
    i = fns[-1][2]
    add = ("\n\nstatic void * __maybe_unused gfpaudit_synth_grab(unsigned int n)\n{\n"
           "\treturn (void *)__get_free_pages(GFP_KERNEL, n ? 5 : 4);\n}\n")
    return src[:i] + add + src[i:]


def edit_drop_nowarn(src):
    code = blank_comments(src)
    m = re.search(r'\s*\|\s*__GFP_NOWARN\b', code)
    if not m:
        m = re.search(r'\b__GFP_NOWARN\s*\|\s*', code)
    if not m:
        return None
    return src[:m.start()] + src[m.end():]


def edit_callee(src):
    """A static function with a gfp_t parameter: its callers pass it on; OR
    __GFP_NORETRY into the first mask it is given."""
    code = blank_comments(src)
    for name, s, e in functions(src):
        head = code[s:code.find('{', s)]
        if not re.search(r'\bstatic\b', head):
            continue
        m = re.search(r'\bgfp_t\s+(\w+)', head)
        if not m:
            continue
        body = code.find('{', s) + 1
        g = re.search(r'\b%s\b(?!\s*[=|&]=?)' % re.escape(m.group(1)), code[body:e])
        if not g:
            continue
        i = body + g.end()
        return src[:i] + " & ~__GFP_NORETRY" + src[i:]
    return None


EDITS = [("noretry", edit_noretry), ("size", edit_size), ("addfn", edit_add_function),
         ("nowarn", edit_drop_nowarn), ("callee", edit_callee)]


def synth_cases(kdir):
    cases = []
    for p in SYNTH_FILES:
        try:
            src = open(os.path.join(kdir, p), errors='surrogateescape').read()
        except OSError:
            continue
        for tag, ed in EDITS:
            new = ed(src)
            if new and new != src:
                cases.append(("synth-%s-%s" % (tag, p.replace('/', '_')), p, src, new))
    return cases


BLANKED = re.compile(r'^profile: \S+ blanked (\d+) bodies, kept (\d+) functions', re.M)


def run(g, kdir, repo, extra, stats=None):
    r = subprocess.run([g, "check", "--staged", "--tree", kdir, "--no-cache", "-j1", "--color=never"] + extra,
                       cwd=repo, capture_output=True, text=True, errors='replace',
                       env=dict(os.environ, GFPAUDIT_NO_CACHE="1", GFPAUDIT_PROFILE="1"))
    if stats is not None:
        m = BLANKED.search(r.stderr)
        stats.extend([int(m.group(1)), int(m.group(2))] if m else [0, 0])
    return r.returncode, r.stdout


def fps(j, key):
    return sorted("%s|%s|%s|%s" % (f.get("rule"), f.get("function"), f.get("api"), f.get("line"))
                  for f in j.get(key, []))


def one(case, g, kdir, tmp):
    name, path, head, new = case
    repo = tempfile.mkdtemp(dir=tmp)
    env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@x", GIT_COMMITTER_NAME="a",
               GIT_COMMITTER_EMAIL="a@x", GIT_CONFIG_NOSYSTEM="1", HOME=tmp)
    os.makedirs(os.path.join(repo, os.path.dirname(path)), exist_ok=True)
    fp = os.path.join(repo, path)
    with open(fp, "w", errors='surrogateescape') as fh:
        fh.write(head)
    subprocess.run(["git", "init", "-q"], cwd=repo, env=env, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
    subprocess.run(["git", "commit", "-qm", "base"], cwd=repo, env=env, check=True)
    with open(fp, "w", errors='surrogateescape') as fh:
        fh.write(new)
    subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
    res, stats = {}, []
    for mode, extra in (("skip", []), ("full", ["--no-skip-bodies"])):
        res[mode + "-text"] = run(g, kdir, repo, extra, stats if mode == "skip" else None)
        rc, out = run(g, kdir, repo, extra + ["--format", "json"])
        try:
            j = json.loads(out)
        except ValueError:
            j = {}
        res[mode + "-json"] = (rc, fps(j, "new"), fps(j, "fixed"), fps(j, "indirect"))
    shutil.rmtree(repo, ignore_errors=True)
    st, ft = res["skip-text"], res["full-text"]
    sj, fj = res["skip-json"], res["full-json"]
    agree = st == ft and sj[:3] == fj[:3]
    return dict(name=name, agree=agree, exit=ft[0], new=len(fj[1]), fixed=len(fj[2]),
                blanked=stats[0], kept=stats[1],
                indirect_full=len(fj[3]), indirect_skip=len(sj[3]), indirect_same=sj[3] == fj[3],
                diff=None if agree else {"skip": [st, sj], "full": [ft, fj]})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gfpaudit", default=os.path.join(ROOT, "gfpaudit"))
    ap.add_argument("--kdir", default=os.path.join(ROOT, "build/linux-6.12"))
    ap.add_argument("--old", default=os.path.join(ROOT, "build/linux-6.1"))
    ap.add_argument("--only", default="")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--json", help="write the per-case results here")
    a = ap.parse_args()
    kdir = os.path.realpath(a.kdir)
    cases = history_cases(kdir, a.old) + synth_cases(kdir) + whole_file_cases(kdir, a.old)
    cases = [c for c in cases if re.search(a.only, c[0])]
    tmp = tempfile.mkdtemp(prefix="gfpaudit-agree.")
    results = []
    try:
        with cf.ThreadPoolExecutor(a.j) as ex:
            for r in ex.map(lambda c: one(c, a.gfpaudit, kdir, tmp), cases):
                results.append(r)
                print("%-4s %-56s exit %d new %d fixed %d indirect %d/%d blanked %d kept %d" % (
                    "ok" if r["agree"] else "DIFF", r["name"], r["exit"], r["new"], r["fixed"],
                    r["indirect_skip"], r["indirect_full"], r["blanked"], r["kept"]), flush=True)
                if not r["agree"]:
                    print("     " + json.dumps(r["diff"])[:2000], flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(results, fh, indent=1)
    n = len(results)
    bad = sum(not r["agree"] for r in results)
    ind = sum(not r["indirect_same"] for r in results)
    err = sum(r["exit"] >= 2 for r in results)
    bl, kp = sum(r["blanked"] for r in results), sum(r["kept"] for r in results)
    print("bodies blanked on the new side: %d, functions kept: %d (%.0f%% blanked)" % (
        bl, kp, 100.0 * bl / max(1, bl + kp)))
    print("%d cases: %d agree, %d differ; with findings: %d new, %d fixed (cases); exit 2 or 3: %d; "
          "JSON indirect lists differ in %d" % (n, n - bad, bad, sum(r["new"] > 0 for r in results),
                                                sum(r["fixed"] > 0 for r in results), err, ind))
    return 1 if bad or err == n else 0


if __name__ == "__main__":
    sys.exit(main())
