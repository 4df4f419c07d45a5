#!/usr/bin/env bash
# Real-kernel test: prepares Debian's linux-source-6.12 under build/ (once,
# about 30 s) and checks tests/realtree/expect-6.12.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kdir=${KDIR:-$here/../build/linux-6.12}
if [ ! -f "$kdir/.gfpaudit-prepared" ] && [ ! -f "$kdir/include/generated/autoconf.h" ]; then
	if ! kdir=$("$here/prepare-kernel.sh" 6.12 "$kdir"); then
		echo "realtree: could not prepare a 6.12 tree"
		echo "0 passed, 1 failed"
		exit 1
	fi
fi
exec python3 "$here/realtree.py" "${GFPAUDIT:-$here/../gfpaudit}" "$kdir" "$here/realtree/expect-6.12.txt"
