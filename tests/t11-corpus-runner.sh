#!/usr/bin/env bash
# Self-test of the corpus runner (tests/corpus.py) with a fake gfpaudit:
# every kind of mismatch must make it fail, known-to-fail cases must XFAIL,
# unexpected passes must fail, malformed cases must be rejected.
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/corpus_selftest.py"
