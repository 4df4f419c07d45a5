import sys, subprocess, os
# bench/reloc.sh's input: repo/ with a data file of N lines, p.mbox (argv[3]) a
# patch of H hunks each changing one line, and repo/ left at a commit with two
# more lines at the top, so every hunk must move.  Usage: N H OUT
N = int(sys.argv[1]); H = int(sys.argv[2]); out = sys.argv[3]
lines = ["line %d: some text here to make it longer %d" % (i, i * 7919 % 1000) for i in range(N)]
os.makedirs("repo/drivers/foo", exist_ok=True)
def w(ls): open("repo/drivers/foo/data.txt", "w").write("\n".join(ls) + "\n")
def git(*a): return subprocess.run(["git", "-C", "repo", "-c", "commit.gpgsign=false"] + list(a), check=True, capture_output=True, text=True).stdout
git("init", "-q")
w(lines); git("add", "-A"); git("commit", "-qm", "base")
base = git("rev-parse", "HEAD").strip()
step = max(1, N // H)
new = list(lines)
for h in range(H):
    new[h * step + step // 2] += " changed"
w(new); git("commit", "-qam", "foo: change many lines", "-m", "Signed-off-by: A <a@example.org>")
open(out, "w").write(git("format-patch", "--stdout", "-1"))
git("reset", "-q", "--hard", base)
# the reviewer's tree has drifted: two lines more at the top
w(["/* drift 1 */", "/* drift 2 */"] + lines); git("commit", "-qam", "drift")
