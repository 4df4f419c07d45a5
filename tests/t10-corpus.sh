#!/usr/bin/env bash
# The annotated corpus (corpus/*.c): each case is parsed with clang against
# include/kmodel, audited in text and JSON, and checked against its markers
# and its expected output block.  See tests/corpus.py for the case format.
set -u
here=$(cd "$(dirname "$0")" && pwd)
GFPAUDIT=${GFPAUDIT:-$here/../gfpaudit}
if ! command -v python3 >/dev/null || ! command -v clang >/dev/null; then
	echo "t10-corpus: needs python3 and clang (make deps)"
	echo "0 passed, 1 failed"
	exit 1
fi
cd "$here/.." && exec python3 tests/corpus.py --gfpaudit "$GFPAUDIT" "$@"
