#!/usr/bin/env bash
# t45-kbuild-checker: gfpaudit as kbuild's checker (issue 19), `make C=2
# CHECK="gfpaudit cc"`: on an out-of-tree module (M=) the build finishes and
# the costly allocation is reported on stderr; -Wgfpaudit-error stops the
# build; on an in-tree directory (mm/damon/) the build finishes and the
# tree's own findings show.
# Works on a hard-linked copy of $KDIR (kbuild writes new files there; the
# prepared tree stays as it is).  Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
G=${GFPAUDIT:-$here/../gfpaudit}
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
. "$here/lib/assert.sh"
T=$(mktemp -d /tmp/gfpaudit-t45.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT

# usage, without a tree
"$G" cc --arch=x86 -Wbitwise -D__linux__ >/dev/null 2>"$T/err"; rc=$?
if [ $rc = 2 ] && grep -q "no C source file" "$T/err"; then ok "cc without a source file: usage (exit 2)"
else fail "cc without a source file: usage (exit 2)" "exit $rc $(cat "$T/err")"; fi
"$G" cc --gfpaudit-severity=loud x.c >/dev/null 2>&1; expect_rc "cc --gfpaudit-severity=loud: usage" 2 $?
"$G" cc --gfpaudit-color=sometimes x.c >/dev/null 2>&1; expect_rc "cc --gfpaudit-color=sometimes: usage" 2 $?
"$G" help >/dev/null 2>&1; "$G" --help | grep -q '^  cc ' && ok "cc is listed in gfpaudit --help" || fail "cc is listed in gfpaudit --help"

if [ ! -f "${KDIR:-}/include/generated/autoconf.h" ]; then
	skip "kbuild checker" "no prepared tree in KDIR"
	finish
fi
K=$T/linux
cp -al "$KDIR" "$K" || { fail "hard-linked copy of $KDIR"; finish; }
# what kbuild may rewrite in place gets a copy of its own, so the shared
# inodes of the prepared tree never change: objects, dependency and command
# files, generated headers and configuration, built tools
{
	find "$K" -type f \( -name '*.o' -o -name '*.a' -o -name '*.d' -o -name '.*.cmd' -o -perm -u+x \)
	find "$K" -maxdepth 1 -type f -name '.*'
	find "$K/include/generated" "$K/include/config" "$K"/arch/*/include/generated -type f 2>/dev/null
} | sed "s|^$K/||" | sort -u > "$T/own"
# tar re-creates each (--unlink-first): a new inode, the same contents
tar -C "$K" -cf - -T "$T/own" | tar -C "$K" -xf - --unlink-first || { fail "unshare the build files of the copy"; finish; }
make -s -C "$K" -j2 modules_prepare >"$T/prep.log" 2>&1 || { fail "make modules_prepare" "$(tail -5 "$T/prep.log")"; finish; }

M=$T/mod
mkdir -p "$M"
cat > "$M/ringbuf.c" <<'C'
/* a test module written for gfpaudit */
#include <linux/module.h>
#include <linux/gfp.h>
#include <linux/mm.h>

static struct page *ringbuf_pages;

static int __init ringbuf_init(void)
{
	ringbuf_pages = alloc_pages(GFP_KERNEL, 5);
	return ringbuf_pages ? 0 : -ENOMEM;
}

static void __exit ringbuf_exit(void)
{
	__free_pages(ringbuf_pages, 5);
}

module_init(ringbuf_init);
module_exit(ringbuf_exit);
MODULE_LICENSE("GPL");
C
echo 'obj-m := ringbuf.o' > "$M/Makefile"
make -C "$K" C=2 CHECK="$G cc" M="$M" KBUILD_MODPOST_WARN=1 modules >"$T/out" 2>&1; rc=$?
if [ $rc = 0 ] && [ -f "$M/ringbuf.ko" ] &&
	grep -qE "^$M/ringbuf.c:10:[0-9]+: warning: 'alloc_pages' can request order 5.*\[costly-no-fallback\]" "$T/out"; then
	ok "make C=2 CHECK='gfpaudit cc' M=: the module builds, the order-5 allocation is reported"
else fail "make C=2 CHECK='gfpaudit cc' M=: the module builds, the order-5 allocation is reported" "exit $rc $(grep -v modpost "$T/out" | tail -12)"; fi
make -C "$K" M="$M" clean >/dev/null 2>&1
make -C "$K" C=2 CHECK="$G cc -Wgfpaudit-error" M="$M" KBUILD_MODPOST_WARN=1 modules >"$T/out" 2>&1; rc=$?
if [ $rc != 0 ] && [ ! -f "$M/ringbuf.ko" ] && grep -q "costly-no-fallback" "$T/out"; then
	ok "-Wgfpaudit-error: the finding stops the build"
else fail "-Wgfpaudit-error: the finding stops the build" "exit $rc $(tail -8 "$T/out")"; fi
# sparse's own flags (CHECKFLAGS) are accepted and ignored
make -C "$K" M="$M" clean >/dev/null 2>&1
make -C "$K" C=2 CHECK="$G cc --gfpaudit-color=always" CF="-Wsparse-all -fmemcpy-max-count=100" M="$M" KBUILD_MODPOST_WARN=1 modules >"$T/out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "ringbuf.c:10:.*costly-no-fallback" "$T/out"; then ok "CF= sparse flags are ignored"
else fail "CF= sparse flags are ignored" "exit $rc $(tail -8 "$T/out")"; fi
grep -q $'\033\\[01;35mwarning:' "$T/out" && ok "--gfpaudit-color=always: GCC's colours on the build's stderr" ||
	fail "--gfpaudit-color=always: GCC's colours on the build's stderr" "$(grep ringbuf.c:10 "$T/out" | cat -v)"

# in the tree: one directory, as kernel developers check a subsystem
# (`make C=2 CHECK=... DIR/`).  mm/damon/ rather than mm/: mm/ is 112
# files and took 24 minutes on a shared 2-CPU machine, mm/damon/ is ten
# (about 100 s there, most of it the compiler).  Its known findings are
# notes (the sysfs nr_* counts come from kstrtoint, unbounded: likely).
make -C "$K" -j2 C=2 CHECK="$G cc --gfpaudit-severity=note" mm/damon/ >"$T/out" 2>&1; rc=$?
if [ $rc = 0 ] && [ -f "$K/mm/damon/built-in.a" ] &&
	grep -qE "^mm/damon/sysfs.c:[0-9]+:[0-9]+: note: 'kmalloc_array' can request order 0..10: no fallback \[costly-no-fallback\]$" "$T/out"; then
	ok "make C=2 mm/damon/: the directory builds, the tree's finding is on stderr with its tree path"
else fail "make C=2 mm/damon/: the directory builds, the tree's finding is on stderr with its tree path" "exit $rc $(tail -8 "$T/out")"; fi
n=$(grep -c "^  CHECK   mm/damon/" "$T/out")
[ "$n" -ge 5 ] && ok "make C=2 mm/damon/: every object of the directory is checked ($n)" ||
	fail "make C=2 mm/damon/: every object of the directory is checked" "$n CHECK lines"
finish
