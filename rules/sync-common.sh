#!/bin/sh
# Copy analyzer/data/allocators.tbl (its table lines) into rules/common.py
# between the "# >>> allocators.tbl" and "# <<< allocators.tbl" lines, then
# rules/common.py into the @initialize:python@ block of every rules/*.cocci,
# between the "# >>> gfpaudit common" and "# <<< gfpaudit common" lines.
# coccicheck runs one .cocci file at a time, so each file carries its own
# copy; tests/rules_tables.py (from tests/t30-cocci.sh) checks both copies.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
tbl=$dir/../analyzer/data/allocators.tbl
awk -v tbl="$tbl" '
	/^# >>> allocators.tbl/ {
		print; print "_ALLOCATORS_TBL = \"\"\""
		while ((getline l < tbl) > 0) if (l !~ /^#/ && l ~ /[^ \t]/) print l
		close(tbl); print "\"\"\""; skip = 1; next
	}
	/^# <<< allocators.tbl/ { skip = 0 }
	!skip { print }
' "$dir/common.py" > "$dir/common.py.tmp" && mv "$dir/common.py.tmp" "$dir/common.py"
for f in "$dir"/*.cocci; do
	awk -v common="$dir/common.py" '
		/^# >>> gfpaudit common/ { print; while ((getline l < common) > 0) print l; close(common); skip = 1; next }
		/^# <<< gfpaudit common/ { skip = 0 }
		!skip { print }
	' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
