#!/bin/sh
# Copy rules/common.py into the @initialize:python@ block of every
# rules/*.cocci, between the "# >>> gfpaudit common" and "# <<< gfpaudit
# common" lines.  coccicheck runs one .cocci file at a time, so each file
# carries its own copy; tests/t30-cocci.sh checks that they match.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
for f in "$dir"/*.cocci; do
	awk -v common="$dir/common.py" '
		/^# >>> gfpaudit common/ { print; while ((getline l < common) > 0) print l; close(common); skip = 1; next }
		/^# <<< gfpaudit common/ { skip = 0 }
		!skip { print }
	' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
