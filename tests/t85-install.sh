#!/usr/bin/env bash
# t85-install: `make install PREFIX=/usr/local DESTDIR=...` from a copy of the
# build, the copy deleted, the installed binary run from another directory:
# it finds its data in PREFIX/share/gfpaudit (with and without --tree); a
# binary without its data is an error (exit 2), never a clean run;
# GFPAUDIT_DATADIR points it elsewhere; the man pages are installed, read
# with man -l and are the commands' current --help; the bash completion
# completes commands, options and rules.  Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
G=${GFPAUDIT:-$root/gfpaudit}
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
. "$here/lib/assert.sh"
T=$(mktemp -d /tmp/gfpaudit-t85.XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT

# the build copy: sources, objects and the binary under test, times kept
mkdir -p "$T/src/build"
cp -a "$root/Makefile" "$root/analyzer" "$root/include" "$root/rules" "$root/man" "$T/src/"
[ -d "$root/build/obj" ] && cp -a "$root/build/obj" "$T/src/build/"
cp -a "$G" "$T/src/gfpaudit"
touch "$T/src/gfpaudit" # newer than its objects: installed as it is
make -s -C "$T/src" install PREFIX=/usr/local DESTDIR="$T/dest" >"$T/install.log" 2>&1
expect_rc "make install PREFIX=/usr/local DESTDIR=..." 0 $? "$(tail -5 "$T/install.log")"
P=$T/dest/usr/local
for f in bin/gfpaudit share/gfpaudit/include/kmodel/linux/gfp.h share/gfpaudit/rules/costly_no_fallback.cocci \
	share/gfpaudit/rules/common.py share/gfpaudit/allocators.tbl share/man/man1/gfpaudit.1 \
	share/man/man1/gfpaudit-audit.1 share/man/man1/gfpaudit-cc.1 share/bash-completion/completions/gfpaudit; do
	[ -f "$P/$f" ] && ok "installed $f" || fail "installed $f"
done
rm -rf "$T/src"
strings "$P/bin/gfpaudit" | grep -F "$root/include/kmodel" >/dev/null && fail "no build path baked into the binary" \
	|| ok "no build path baked into the binary"

# a small case, audited from another directory
mkdir -p "$T/elsewhere/mod"
cat > "$T/elsewhere/mod/big.c" <<'C'
#include <linux/module.h>
#include <linux/slab.h>
void *big_table(void)
{
	return kmalloc(1 << 20, GFP_KERNEL);
}
C
out=$(cd "$T/elsewhere" && "$P/bin/gfpaudit" audit -q --no-cache mod/big.c 2>&1); rc=$?
expect_rc "installed, no --tree: the finding (exit 1)" 1 $rc "$out"
expect_grep "installed, no --tree: kmalloc of order 8 reported" "big.c:5:[0-9]+: warning: .*\[costly-no-fallback\]" "$out"
if [ -f "${KDIR:-}/include/generated/autoconf.h" ]; then
	out=$(cd "$T/elsewhere" && "$P/bin/gfpaudit" audit -q --no-cache --no-pch --tree "$KDIR" mod/big.c 2>&1); rc=$?
	expect_rc "installed, --tree: the finding (exit 1)" 1 $rc "$out"
	expect_grep "installed, --tree: kmalloc reported" "big.c:5:[0-9]+: warning: .*\[costly-no-fallback\]" "$out"
else
	skip "installed, --tree" "no prepared tree in KDIR"
fi

# the binary alone: its data is missing, which is an error
mkdir -p "$T/lonely"
cp "$P/bin/gfpaudit" "$T/lonely/gfpaudit"
out=$(cd "$T/elsewhere" && "$T/lonely/gfpaudit" audit -q --no-cache mod/big.c 2>&1); rc=$?
expect_rc "a binary without its data: exit 2" 2 $rc "$out"
expect_grep "a binary without its data: says what is missing" "data directory" "$out"
git -C "$T/elsewhere" init -q && git -C "$T/elsewhere" add mod/big.c
for cmd in "check --staged" "explain mod/big.c:5" "facts mod" "review /dev/null"; do
	out=$(cd "$T/elsewhere" && "$T/lonely/gfpaudit" $cmd 2>&1); rc=$?
	if [ $rc = 2 ] && grep -q "data directory" <<<"$out"; then ok "a binary without its data: '$cmd' exits 2"
	else fail "a binary without its data: '$cmd' exits 2, naming the data directory" "exit $rc: $out"; fi
done
out=$(cd "$T/elsewhere" && GFPAUDIT_DATADIR="$P/share/gfpaudit" "$T/lonely/gfpaudit" audit -q --no-cache mod/big.c 2>&1); rc=$?
expect_rc "GFPAUDIT_DATADIR: the finding (exit 1)" 1 $rc "$out"
out=$(cd "$T/elsewhere" && GFPAUDIT_DATADIR="$T/elsewhere" "$P/bin/gfpaudit" audit -q --no-cache mod/big.c 2>&1); rc=$?
expect_rc "GFPAUDIT_DATADIR naming no data: exit 2, not the install's data" 2 $rc "$out"

# manual pages: they render, and each command's page is its current --help
for page in "$P"/share/man/man1/*.1; do
	err=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)
	[ -z "$err" ] && ok "man -l $(basename "$page")" || fail "man -l $(basename "$page")" "$err"
done
for cmd in $("$G" --help | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}'); do
	if [ ! -f "$root/man/gfpaudit-$cmd.1" ]; then fail "man/gfpaudit-$cmd.1 exists"; continue; fi
	bash "$root/man/gen-man.sh" "$G" "$cmd" > "$T/$cmd.1" 2>&1
	if cmp -s "$T/$cmd.1" "$root/man/gfpaudit-$cmd.1"; then ok "man/gfpaudit-$cmd.1 is '$cmd --help' (make man)"
	else fail "man/gfpaudit-$cmd.1 is '$cmd --help' (run make man)" "$(diff "$root/man/gfpaudit-$cmd.1" "$T/$cmd.1" | head -10)"; fi
	grep -q "gfpaudit\\\\-$cmd\\\\fR(1)" "$root/man/gfpaudit.1" && ok "gfpaudit.1 lists $cmd" || fail "gfpaudit.1 lists $cmd"
done

# bash completion, with the installed binary
comp() { bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gfpaudit; echo "${COMPREPLY[*]}"' \
	_ "$P/share/bash-completion/completions/gfpaudit" "$@"; }
expect_grep "completion: commands" "^audit$" "$(comp "$P/bin/gfpaudit" au)"
expect_grep "completion: audit options" "--no-cache" "$(comp "$P/bin/gfpaudit" audit --no-c)"
expect_grep "completion: rule names after --enable" "costly-no-fallback,nofail-high-order" \
	"$(comp "$P/bin/gfpaudit" audit --enable costly-no-fallback,nof)"
finish
