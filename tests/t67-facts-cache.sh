#!/usr/bin/env bash
# The facts passes, cached and iterated (factpass.h), and the tree's facts
# for partial audits (treefacts.h), on tests/data/facts-chain/: q_init.c
# stores 4096 into q_cfg.depth, q_setup.c passes that field to
# q_ring_alloc() in q_ring.c, which allocates 64 bytes an entry: an order-6
# request, seen only when the facts go two files deep (2 passes).  d_buf.c
# bounds a field of its own and consults none of the chain's keys.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib/assert.sh"
G=${GFPAUDIT:-$root/gfpaudit}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -r "$root/tests/data/facts-chain" "$T/chain"
cd "$T/chain" || exit 1
FILES="d_buf.c q_init.c q_ring.c q_setup.c"
# the chain starts at a field store in another file: a likely order, a note (--severity note shows it)
RING='q_ring\.c:9:12: note: .kmalloc_array. can request order 6 .*\[costly-no-fallback\]'

# json_core FILE: the report without what differs between runs by design
json_core() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("files",None); d.pop("version",None); print(json.dumps(d,sort_keys=True))' "$1"
}
# judged ERRFILE: the files a worker judged in the facts passes (-vv), sorted
judged() { sed -n 's/^gfpaudit: facts pass [0-9]*: judged //p' "$1" | sort -u | tr '\n' ' '; }

# --- passes: the chain needs two ---
out=$("$G" audit --severity note --no-cache --facts-passes 1 -v $FILES 2>&1)
expect_nogrep "one pass: the parameter still holds the caller's unknown field" "$RING" "$out"
expect_grep "one pass: -v says the limit stopped it" '1 passes \(the limit, --facts-passes\)' "$out"
out=$("$G" audit --severity note --no-cache --facts-passes 2 $FILES 2>&1)
expect_grep "two passes: the field's constant reaches the allocation" "$RING" "$out"
"$G" audit --severity note --no-cache --facts-passes 0 $FILES > /dev/null 2>&1
expect_rc "--facts-passes 0 is a usage error" 2 $?
"$G" audit --severity note --no-cache --no-facts $FILES > "$T/nofacts.txt" 2>&1
expect_nogrep "--no-facts: the size is the parameter's, no finding" "$RING" "$(cat "$T/nofacts.txt")"

# --- cold, warm ---
C="$T/cache.sqlite"
"$G" audit --severity note --cache "$C" -vv --format json --sites $FILES > "$T/cold.json" 2> "$T/cold.err"
expect_rc "cold: exit 1 (the finding)" 1 $? "$(cat "$T/cold.err")"
expect_grep "cold: the finding" '"function": "q_ring_alloc"' "$(cat "$T/cold.json")"
expect_grep "cold: converged, files parsed in the facts passes" 'passes \(converged\), [1-9][0-9]* files re-judged \([1-9][0-9]* parsed, 0 from the cache' "$(cat "$T/cold.err")"
expect_grep "cold: two passes reach the fixed point (no file feeds itself)" 'facts: [0-9]+ keys from 4 files; 2 passes \(converged\)' "$(cat "$T/cold.err")"
# cold, no state to judge against: no second judgement on the first parse
# (against d_buf.c's own store alone it was one; on the mixed bench set such
# judgements were a fifth of the first pass, 14 of 385 taken)
GFPAUDIT_PROFILE=1 "$G" audit --severity note --no-cache -v $FILES > /dev/null 2> "$T/cold-prof.err"
expect_grep "cold: no second judgement without a state" '^phase: first pass: 0 second judgements' "$(cat "$T/cold-prof.err")"
expect_grep "cold: every re-judgement parsed" 're-judged \([0-9]+ parsed, 0 from the cache, 0 from the first parse' "$(cat "$T/cold-prof.err")"
"$G" audit --severity note --cache "$C" -vv --format json --sites $FILES > "$T/warm.json" 2> "$T/warm.err"
expect_grep "warm: every file from the cache" "4 files: 4 from the cache" "$(cat "$T/warm.err")"
# nothing changed: the run record of the cold run answers the passes
expect_grep "warm: the run record answers the passes (no join, no pass)" 'facts: [0-9]+ keys from 4 files; from the run record: [1-9][0-9]* files take their judged result' "$(cat "$T/warm.err")"
expect_nogrep "warm: no 'judged' line" 'facts pass [0-9]+: judged' "$(cat "$T/warm.err")"
if [ "$(json_core "$T/cold.json")" = "$(json_core "$T/warm.json")" ]; then ok "warm: the same JSON as cold (but the file counts)"
else fail "warm: the same JSON as cold" "$(diff <(json_core "$T/cold.json") <(json_core "$T/warm.json"))"; fi

# --- --no-facts and facts runs share no row ---
"$G" audit --severity note --cache "$C" --no-facts -v $FILES > "$T/nf1.txt" 2> "$T/nf1.err"
expect_grep "--no-facts after facts runs: nothing from their rows" "4 files: 0 from the cache" "$(cat "$T/nf1.err")"
expect_nogrep "--no-facts after facts runs: no facts-judged finding" "$RING" "$(cat "$T/nf1.txt")"
expect_nogrep "--no-facts: no facts pass" 'facts:' "$(cat "$T/nf1.err")"
"$G" audit --severity note --cache "$C" --no-facts -v $FILES > /dev/null 2> "$T/nf2.err"
expect_grep "--no-facts warm: its own rows" "4 files: 4 from the cache" "$(cat "$T/nf2.err")"
out=$("$G" audit --severity note --cache "$C" -v $FILES 2>&1)
expect_grep "facts after --no-facts runs: still its own rows and finding" "4 files: 4 from the cache.*" "$out"
expect_grep "facts after --no-facts runs: the finding" "$RING" "$out"

# --- one file changes ---
printf '/* touched */\n' >> d_buf.c
"$G" audit --severity note --cache "$C" -vv $FILES > /dev/null 2> "$T/t1.err"
expect_grep "comment in d_buf.c: only it is parsed again" "4 files: 3 from the cache" "$(cat "$T/t1.err")"
got=$(judged "$T/t1.err")
# its first parse judged it again against the last run's state with its
# part replaced (engine.h engine_set_spec_state): that judgement is its
# result when the passes resume, so no worker judges it, and no pass runs
if [ -z "$got" ]; then ok "comment in d_buf.c: no file judged again by a worker"; else fail "comment in d_buf.c: no file judged again by a worker" "judged: $got"; fi
# the record misses (d_buf.c's row is new): the passes resume from where
# the last run's ended (factstate.h), and only the changed file is judged
expect_grep "comment in d_buf.c: resumed from the last run's state" "resumed from the last run's state \(1 files changed since\)" "$(cat "$T/t1.err")"
expect_grep "comment in d_buf.c: only its judgement, from its first parse" 'files changed since\): 0 passes \(converged\), 1 files re-judged \(0 parsed, 0 from the cache, 1 from the first parse' "$(cat "$T/t1.err")"
# q_setup.c reads q_init.c's store (another file's fact): judged on its first
# parse against the state, as the resumed passes would judge it
printf '/* touched */\n' >> q_setup.c
"$G" audit --severity note --cache "$C" -vv $FILES > "$T/t1b.txt" 2> "$T/t1b.err"
expect_grep "comment in q_setup.c: only it is parsed again" "4 files: 3 from the cache" "$(cat "$T/t1b.err")"
got=$(judged "$T/t1b.err")
if [ -z "$got" ]; then ok "comment in q_setup.c: no file judged again by a worker"; else fail "comment in q_setup.c: no file judged again by a worker" "judged: $got"; fi
expect_grep "comment in q_setup.c: its judgement from its first parse, no pass" 'files changed since\): 0 passes \(converged\), 1 files re-judged \(0 parsed, 0 from the cache, 1 from the first parse' "$(cat "$T/t1b.err")"
expect_grep "comment in q_setup.c: the finding still" "$RING" "$(cat "$T/t1b.txt")"
"$G" audit --severity note --no-cache -vv $FILES > "$T/t1c.txt" 2> "$T/t1c.err"
if [ "$(cat "$T/t1b.txt")" = "$(cat "$T/t1c.txt")" ]; then ok "comment in q_setup.c: resumed, the findings of a run with no cache"
else fail "comment in q_setup.c: resumed, the findings of a run with no cache" "$(diff "$T/t1b.txt" "$T/t1c.txt")"; fi
sed -i 's/4096/8/' q_init.c
"$G" audit --severity note --cache "$C" -vv $FILES > "$T/t2.txt" 2> "$T/t2.err"
got=$(judged "$T/t2.err")
if [ "$got" = "q_ring.c q_setup.c " ]; then ok "q_init.c stores 8: its readers (q_setup.c, then q_ring.c) judged again, d_buf.c not"
else fail "q_init.c stores 8: its readers judged again, d_buf.c not" "judged: $got" "$(cat "$T/t2.err")"; fi
expect_nogrep "q_init.c stores 8: 512 bytes, no finding" "$RING" "$(cat "$T/t2.txt")"
expect_grep "q_init.c stores 8: resumed" "resumed from the last run's state" "$(cat "$T/t2.err")"
GFPAUDIT_NO_RESUME=1 "$G" audit --severity note --no-cache $FILES > "$T/t2-ref.txt" 2>/dev/null
cmp -s "$T/t2.txt" "$T/t2-ref.txt" && ok "q_init.c stores 8: resumed, the findings of a run with no cache" \
	|| fail "q_init.c stores 8: resumed, the findings of a run with no cache" "$(diff "$T/t2-ref.txt" "$T/t2.txt")"
# a file gone from the run: its part leaves the join (d_buf.c's keys are its own)
out=$("$G" audit --severity note --cache "$C" -v q_init.c q_ring.c q_setup.c 2>&1)
expect_grep "d_buf.c left out: resumed, no pass" "resumed from the last run's state \(1 files changed since\): 0 passes \(converged\)" "$out"
# back to 4096 with d_buf.c: the files of the "comment in d_buf.c" run,
# whose record answers; then q_init.c stores 16 (1 KiB, no finding): resumed
# from the state that record's run... no: from the newest state, which the
# q_init.c-alone run left (3 files), so d_buf.c comes back and q_init.c
# changed: 2 files
sed -i 's/= 8;/= 4096;/' q_init.c
"$G" audit --severity note --cache "$C" -vv $FILES > "$T/t2b.txt" 2> "$T/t2b.err"
expect_grep "q_init.c back, d_buf.c back: that run's record" "from the run record" "$(cat "$T/t2b.err")"
expect_grep "q_init.c back, d_buf.c back: the finding again" "$RING" "$(cat "$T/t2b.txt")"
sed -i 's/= 4096;/= 16;/' q_init.c
"$G" audit --severity note --cache "$C" -vv $FILES > "$T/t2c.txt" 2> "$T/t2c.err"
expect_grep "q_init.c stores 16, d_buf.c back: resumed (2 files changed)" "resumed from the last run's state \(2 files changed since\)" "$(cat "$T/t2c.err")"
"$G" audit --severity note --no-cache $FILES > "$T/t2c-ref.txt" 2>/dev/null
cmp -s "$T/t2c.txt" "$T/t2c-ref.txt" && ok "q_init.c stores 16: resumed, the findings of a run with no cache" \
	|| fail "q_init.c stores 16: resumed, the findings of a run with no cache" "$(diff "$T/t2c-ref.txt" "$T/t2c.txt")"
sed -i 's/= 16;/= 8;/' q_init.c
"$G" audit --severity note --cache "$C" -vv $FILES > /dev/null 2> "$T/t2d.err"
"$G" audit --severity note --cache "$C" -vv $FILES > /dev/null 2> "$T/t3.err"
expect_grep "and warm again: from the run record" 'from the run record: [1-9][0-9]* files' "$(cat "$T/t3.err")"
sed -i 's/= 8;/= 4096;/' q_init.c

# --- the run record: a warm run whose inputs are the cold run's ---
R="$T/record.sqlite"
"$G" audit --severity note --cache "$R" -v --format json --sites $FILES > "$T/r0.json" 2> "$T/r0.err"
expect_grep "record: the cold run runs the passes" 'passes \(converged\), [1-9][0-9]* files re-judged' "$(cat "$T/r0.err")"
"$G" audit --severity note --cache "$R" -v --format json --sites $FILES > "$T/r1.json" 2> "$T/r1.err"
expect_grep "record: the warm run takes it (3 files judged again)" 'from the run record: 3 files take their judged result, no join, no pass \(converged\)' "$(cat "$T/r1.err")"
[ "$(json_core "$T/r0.json")" = "$(json_core "$T/r1.json")" ] && ok "record: the same JSON as cold" \
	|| fail "record: the same JSON as cold" "$(diff <(json_core "$T/r0.json") <(json_core "$T/r1.json"))"
"$G" audit --severity note --cache "$R" $FILES > "$T/r1.txt" 2>/dev/null
"$G" audit --severity note --no-cache $FILES > "$T/r1-ref.txt" 2>/dev/null
cmp -s "$T/r1.txt" "$T/r1-ref.txt" && ok "record: the same text as a run with no cache" \
	|| fail "record: the same text as a run with no cache" "$(diff "$T/r1-ref.txt" "$T/r1.txt")"
out=$("$G" audit --severity note --cache "$R" -v --facts-passes 2 $FILES 2>&1)
expect_nogrep "record: another --facts-passes is another key" 'from the run record' "$out"
# a file that publishes: its row changes, so the key; the passes run and
# judge its readers with the new value
sed -i 's/4096/8/' q_init.c
"$G" audit --severity note --cache "$R" -vv $FILES > "$T/r2.txt" 2> "$T/r2.err"
expect_nogrep "record: q_init.c edited: not from the record" 'from the run record' "$(cat "$T/r2.err")"
expect_grep "record: q_init.c edited: the passes judge its readers" 'facts pass [0-9]+: judged q_ring.c' "$(cat "$T/r2.err")"
"$G" audit --severity note --no-cache $FILES > "$T/r2-ref.txt" 2>/dev/null
cmp -s "$T/r2.txt" "$T/r2-ref.txt" && ok "record: q_init.c edited: the findings of a run with no cache (none)" \
	|| fail "record: q_init.c edited: the findings of a run with no cache" "$(diff "$T/r2-ref.txt" "$T/r2.txt")"
expect_nogrep "record: q_init.c edited: 512 bytes, no finding" "$RING" "$(cat "$T/r2.txt")"
out=$("$G" audit --severity note --cache "$R" -v $FILES 2>&1)
expect_grep "record: and warm again: the new record" 'from the run record' "$out"
expect_nogrep "record: and warm again: still no finding" "$RING" "$out"
# back as it was: the first record answers again, with the finding
sed -i 's/= 8;/= 4096;/' q_init.c
out=$("$G" audit --severity note --cache "$R" -v $FILES 2>&1)
expect_grep "record: q_init.c back: the first record again" 'from the run record' "$out"
expect_grep "record: q_init.c back: the finding" "$RING" "$out"
# the record names rows by their checksum: a judged row gone (pruned,
# edited) leaves the passes to run, with the same answer
sqlite3 "$R" "UPDATE judged SET checksum='x'" 2>/dev/null && {
	out=$("$G" audit --severity note --cache "$R" -v $FILES 2>&1)
	expect_nogrep "record: judged rows untrusted: not from the record" 'from the run record' "$out"
	expect_grep "record: judged rows untrusted: the passes judge again, the finding" "$RING" "$out"
} || skip "record: judged rows edited" "no sqlite3"

# --- a run that builds the tree's facts, then the same run: the record ---
# The first run found no tree facts in the cache, the second finds its own
# files' only (none left to add): the same inputs, so the same record.  The
# whole-tree audit of session 12 missed it this way (2 min instead of 8 s).
B="$T/build.sqlite"
"$G" facts --cache "$B" -v "$T/chain" > "$T/b1.err" 2>&1
expect_grep "facts, cold: the passes ran" 'passes \(converged\)' "$(cat "$T/b1.err")"
out=$("$G" facts --cache "$B" -v "$T/chain" 2>&1)
expect_grep "facts again: the cold run's record answers (its tree facts are the run's own files)" 'from the run record: [1-9][0-9]* files' "$out"

# --- the tree's facts for part of the tree ---
P="$T/part.sqlite"
out=$("$G" audit --severity note --cache "$P" q_ring.c 2>&1)
expect_nogrep "q_ring.c alone, no tree facts: its parameter is unknown" "$RING" "$out"
"$G" facts --cache "$P" --key field:q_cfg.depth > "$T/k0.txt" 2>&1
expect_rc "facts --key before they are built: exit 2" 2 $? "$(cat "$T/k0.txt")"
expect_grep "facts --key before they are built: says how to build them" "run 'gfpaudit facts" "$(cat "$T/k0.txt")"
out=$("$G" facts --cache "$P" "$T/chain" 2>&1)
expect_rc "facts: built" 0 $? "$out"
expect_grep "facts: says what it built" 'tree facts: built for .*/chain: 4 files, [0-9]+ keys' "$out"
out=$("$G" audit --severity note --cache "$P" q_ring.c 2>&1)
expect_grep "q_ring.c alone with the tree's facts: the finding" "$RING" "$out"
expect_grep "q_ring.c alone: the summary says the tree's facts were read" 'tree facts: 3 files from the cache' "$out"
out=$("$G" audit --severity note --cache "$P" -v q_ring.c 2>&1)
expect_grep "q_ring.c alone again: from the run record (the tree's facts as it left them)" 'from the run record' "$out"
expect_grep "q_ring.c alone again: the finding" "$RING" "$out"
out=$("$G" facts --cache "$P" --key field:q_cfg.depth 2>&1)
expect_grep "facts --key: value and provenance" '^field:q_cfg\.depth: 4096 \(const; 1 observation\)' "$out"
expect_grep "facts --key: where it is stored" '^  (.*/)?q_init\.c:6: 4096 \(const\)' "$out"
out=$("$G" facts --cache "$P" --key param:q_ring_alloc#1 --format json 2>&1)
expect_grep "facts --key json: the caller's store" '"file": "(.*/)?q_setup.c"' "$out"
# addresses are no facts: the pointer q_ring.c stores into q_cfg.ring and the
# struct pointer q_setup.c passes (a size, an order, a mask never is one)
out=$("$G" facts --cache "$P" --key field:q_cfg.ring 2>&1)
expect_grep "facts --key: a pointer field's stores are not kept" 'nothing in the tree.s facts' "$out"
out=$("$G" facts --cache "$P" --key param:q_ring_alloc#0 2>&1)
expect_grep "facts --key: a pointer argument is not kept" 'nothing in the tree.s facts' "$out"
out=$("$G" facts --cache "$P" --key field:q_cfg.nothing 2>&1)
expect_grep "facts --key: a key nothing stores" 'nothing in the tree.s facts' "$out"
sed -i 's/4096/8/' q_init.c
out=$("$G" audit --severity note --cache "$P" q_ring.c 2>&1)
expect_grep "a file changed since: left out, and said" '1 changed since they were built: left out' "$out"
"$G" facts --cache "$P" "$T/chain" > /dev/null 2>&1
out=$("$G" audit --severity note --cache "$P" -v q_ring.c 2>&1)
expect_nogrep "rebuilt: the tree's facts changed: not from the run record" 'from the run record' "$out"
expect_nogrep "rebuilt: the new constant (8) gives no finding" "$RING" "$out"
expect_grep "rebuilt: the tree's facts read again" 'tree facts: 3 files from the cache' "$out"
out=$("$G" audit --severity note --cache "$P" d_buf.c "$root/tests/data/facts/alloc.c" 2>&1)
expect_grep "files outside the facts' root: not used, and said" 'tree facts: built for .*, not for these files' "$out"

# --- shards on several machines: facts --shard, --import, audit --shard, merge ---
# The chain (two files deep) and six pairs of a field store in one file and
# an allocation by it in another, spread over 4 shards: each shard's facts
# are built in its own cache (a machine each), imported into one, built
# again against it (the second round takes the chain's second hop), imported
# again; the audits of the shards against copies of it, merged, are the
# unsharded audit with facts (file counts aside).
S="$T/shards"
mkdir -p "$S/tree/lib"
cp "$root/tests/data/facts-chain/"*.c "$root/tests/data/facts-chain/"*.h "$S/tree/lib/"
for i in 1 2 3 4 5 6; do
	printf '#include <linux/slab.h>\nstruct pool%s { unsigned int nent; };\nvoid pool%s_setup(struct pool%s *p)\n{\n\tp->nent = %s000;\n}\n' \
		$i $i $i $i > "$S/tree/lib/set$i.c"
	printf '#include <linux/slab.h>\nstruct pool%s { unsigned int nent; };\nvoid *pool%s_alloc(struct pool%s *p)\n{\n\treturn kmalloc_array(p->nent, 64, GFP_KERNEL);\n}\n' \
		$i $i $i > "$S/tree/lib/use$i.c"
done
cd "$S" || exit 1
"$G" audit -q --severity note --cache all.sqlite --format json tree > all.json 2>/dev/null
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' all.json)
[ "$n" = 7 ] && ok "unsharded with facts: the chain and the six pairs are found ($n)" || fail "unsharded: $n findings, want 7"
for k in 1 2 3 4; do "$G" audit -q --severity note --no-cache --shard $k/4 --format json tree > plain$k.json 2>/dev/null; done
"$G" merge -q plain1.json plain2.json plain3.json plain4.json > plain.json
[ "$(json_core all.json)" = "$(json_core plain.json)" ] && fail "shards without the tree's facts already equal the unsharded run: the test shows nothing" \
	|| ok "shards without the tree's facts miss what another shard stores"
for k in 1 2 3 4; do "$G" facts -q --shard $k/4 --cache c$k.sqlite tree || fail "facts --shard $k/4"; done
out=$("$G" facts --import --cache m1.sqlite c1.sqlite c2.sqlite c3.sqlite c4.sqlite 2>&1); rc=$?
expect_rc "facts --import of the four shard caches" 0 "$rc" "$out"
expect_grep "  and it says what it copied" 'c4\.sqlite: [0-9]+ files? of tree facts, [0-9]+ results and [0-9]+ judged results imported into m1\.sqlite' "$out"
for k in 1 2 3 4; do cp m1.sqlite c$k.sqlite; "$G" facts -q --shard $k/4 --cache c$k.sqlite tree; done
"$G" facts -q --import --cache m2.sqlite c1.sqlite c2.sqlite c3.sqlite c4.sqlite
for k in 1 2 3 4; do
	cp m2.sqlite s$k.sqlite
	"$G" audit -q --severity note --shard $k/4 --cache s$k.sqlite --format json tree > s$k.json 2>/dev/null
done
"$G" merge -q s1.json s2.json s3.json s4.json > merged.json
# (the file counts aside: the imported caches answer some files)
[ "$(json_core all.json)" = "$(json_core merged.json)" ] && ok "4 shards with imported facts, merged, equal the unsharded audit" \
	|| fail "4 shards with imported facts differ from the unsharded audit" "$(diff all.json merged.json | head -20)"
# one shard after one round only: the chain's second hop is missing (why the flow has two)
for k in 1 2 3 4; do cp m1.sqlite r$k.sqlite; "$G" audit -q --severity note --shard $k/4 --cache r$k.sqlite --format json tree > r$k.json 2>/dev/null; done
"$G" merge -q r1.json r2.json r3.json r4.json > round1.json
[ "$(json_core all.json)" = "$(json_core round1.json)" ] && fail "one round already equals the unsharded audit: the second round is not tested" \
	|| ok "after one round the two-deep chain is not there yet"
# a cache made elsewhere (a CI run): imported, the audit is warm
"$G" facts -q --import --cache ci.sqlite all.sqlite
"$G" audit --severity note -v --cache ci.sqlite --format json tree > ci.json 2> ci.err
expect_grep "an imported cache answers every file: none parsed" ' 0 parsed by workers' "$(cat ci.err)"
expect_grep "  and the facts passes take the judged results from it" '\(0 parsed, [1-9][0-9]* from the cache' "$(cat ci.err)"
if [ "$(json_core all.json)" = "$(json_core ci.json)" ]; then ok "  with the same findings as the run that made it"
else fail "  with the same findings as the run that made it" "$(diff all.json ci.json | head)"; fi
"$G" facts --import --cache m3.sqlite no-such.sqlite > /dev/null 2>&1
expect_rc "facts --import of a missing file: usage error" 2 $?
echo "not a cache" > junk.sqlite
out=$("$G" facts --import --cache m3.sqlite junk.sqlite 2>&1); rc=$?
expect_rc "facts --import of a file that is no cache: usage error" 2 "$rc" "$out"
expect_grep "  and it says so" "is not a gfpaudit cache" "$out"
"$G" facts --import --cache m3.sqlite > /dev/null 2>&1
expect_rc "facts --import without caches: usage error" 2 $?
cd "$T/chain" || exit 1

# --- with a kernel tree: the summary says when the facts are not built ---
KDIR=${KDIR:-$root/build/linux-6.12}
if [ -f "$KDIR/include/generated/autoconf.h" ]; then
	out=$("$G" audit --severity note --tree "$KDIR" --cache "$T/k.sqlite" q_ring.c 2>&1)
	expect_grep "--tree, facts not built: the summary says how to build them" "tree facts: not built; run 'gfpaudit facts --tree $KDIR'" "$out"
else
	skip "--tree summary" "no prepared tree at $KDIR"
fi
"$G" facts --help | grep -q -- '--key KEY' && ok "facts --help lists --key" || fail "facts --help lists --key"
"$G" audit --severity note --help | grep -q -- '--facts-passes N' && ok "audit --help lists --facts-passes" || fail "audit --help lists --facts-passes"
finish
