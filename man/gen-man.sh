#!/usr/bin/env bash
# Write the manual page of one command from its --help text, so the page and
# the help cannot disagree: man/gen-man.sh GFPAUDIT CMD > man/gfpaudit-CMD.1
# (`make man` rewrites them all; tests/t85-install.sh checks they are current).
# Option lines ("  -x, --opt ARG   text") become tagged paragraphs; the first
# paragraph, the usage, is the synopsis.
set -euo pipefail
G=$1 cmd=$2
summary=$("$G" --help | awk -v c="$cmd" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
[ -n "$summary" ] || { echo "gen-man: '$cmd' is not in 'gfpaudit --help'" >&2; exit 1; }
"$G" "$cmd" --help | awk -v cmd="$cmd" -v summary="$summary" '
function esc(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	return s
}
function line(s) {
	s = esc(s)
	if (s ~ /^[.\047]/)
		s = "\\&" s
	print s
}
BEGIN {
	printf ".TH GFPAUDIT\\-%s 1 \"\" gfpaudit \"gfpaudit manual\"\n", toupper(cmd)
	print ".SH NAME"
	printf "gfpaudit\\-%s \\- %s\n", esc(cmd), esc(summary)
	print ".SH SYNOPSIS"
	print ".nf"
	part = "usage"
}
part == "usage" && /^$/ { print ".fi"; print ".SH DESCRIPTION"; part = "body"; next }
part == "usage" { sub(/^(usage: |       )/, ""); line($0); next }
/^$/ { print ".PP"; next }
/^[a-z]+:/ && !/^  / { print ".SH " toupper(substr($0, 1, index($0, ":") - 1)); rest = substr($0, index($0, ":") + 1); sub(/^ +/, "", rest); if (rest != "") line(rest); next }
/^  +-/ && match($0, /^ +-[^ ]+( [^ -][^ ]*)*(, -[^ ]+( [^ -][^ ]*)*)*  +/) {
	opt = substr($0, 1, RLENGTH); text = substr($0, RLENGTH + 1)
	sub(/^ +/, "", opt); sub(/ +$/, "", opt)
	print ".TP"
	print "\\fB" esc(opt) "\\fR"
	line(text)
	next
}
{ s = $0; sub(/^ +/, "", s); line(s) }
END {
	print ".SH SEE ALSO"
	print "\\fBgfpaudit\\fR(1)"
}'
