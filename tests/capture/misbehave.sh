# What real programs do to a capture: crash, abort, leave with exit() or
# without destroying anything, change directory, run one after the other or
# at once under one name, fork. Every process's calls are in a file of its
# own that reads whole, and the launcher's status is the application's.
. "$SRC/lib.sh"
need_apitrace
APP=$APPS/capture_misbehave
# calls NAME FILE: how many calls of that name `apitrace dump` reads.
dumped() { apitrace dump "$2" 2> dump.err | grep -c "^[0-9]* $1(" ; }

# A crash right after a submit: the calls up to it are in the trace (the
# fatal signal flushes it), and the status is the crash's.
for end in segv:139 abort:134; do
  how=${end%%:*} want=${end##*:}
  "$CAPTURE" --trace "$how.trace" -- "$APP" --end "$how" > "$how.out" 2> "$how.err"
  status=$?
  [ "$status" = "$want" ] || { cat "$how.err" >&2; fail "--end $how: status $status, expected $want"; }
  [ "$(dumped vkQueueSubmit "$how.trace")" = 1 ] || { cat dump.err >&2; fail "--end $how: the submit is not in the trace"; }
  grep -q "^unreadable\|^nothing captured" "$how.err" && { cat "$how.err" >&2; fail "--end $how: report"; }
done

# Leaving without destroying anything: with _exit() (no handler runs, but
# the submit wrote what was pending), exit(), or from main.
for how in _exit exit leak; do
  "$CAPTURE" --trace "$how.trace" -- "$APP" --end "$how" > "$how.out" 2> "$how.err" ||
    { cat "$how.err" >&2; fail "--end $how"; }
  [ "$(dumped vkQueueSubmit "$how.trace")" = 1 ] || fail "--end $how: the submit is not in the trace"
done

# A launch script that changes directory: the names stay where the user
# asked, for the trace and for the archives.
mkdir elsewhere
"$CAPTURE" --trace rel.trace --foz rel -- "$APP" --chdir elsewhere > rel.out 2> rel.err ||
  { cat rel.err >&2; fail "--chdir"; }
[ -s rel.trace ] && ls rel.*.foz > /dev/null 2>&1 || fail "the outputs are not where the user asked"
[ -z "$(ls elsewhere)" ] || fail "outputs in the application's directory: $(ls elsewhere)"
grep -q "^nothing captured" rel.err && fail "--chdir: nothing captured"

# Several processes under one name, one after the other and at once: each
# has its own file, every file reads whole, and the report lists them all.
"$CAPTURE" --trace seq.trace --json -o seq.json -- sh -c "'$APP' && '$APP'" > seq.out 2> seq.err ||
  { cat seq.err >&2; fail "two processes one after the other"; }
"$CAPTURE" --trace par.trace --json -o par.json -- sh -c "'$APP' --submits 50 & '$APP' --submits 50; wait" \
  > par.out 2> par.err || { cat par.err >&2; fail "two processes at once"; }
for name in seq par; do
  [ "$(jq '.traces | length' $name.json)" = 2 ] || { cat $name.json >&2; fail "$name: not two traces"; }
  [ "$(ls $name*.trace | wc -l)" = 2 ] || fail "$name: $(ls $name*.trace)"
  for t in $name*.trace; do
    apitrace dump "$t" > /dev/null 2> dump.err || { cat dump.err >&2; fail "$t does not read whole"; }
    "$STAT" "$t" > /dev/null 2> stat.err || { cat stat.err >&2; fail "trak-stat $t"; }
    [ "$(dumped vkCreateDevice "$t")" = 1 ] || fail "$t: not one device"
  done
done

# Two runs at once with the same name: neither writes into the other's file.
# The first runs until it is told to stop (SIGTERM, passed on).
"$CAPTURE" --trace twice.trace -- "$APP" --submits 100000000 > a.out 2> a.err &
first=$!
i=0
until [ "$(wc -c 2>/dev/null < twice.trace || echo 0)" -gt 4000 ]; do
  i=$((i + 1)); [ $i -lt 600 ] || { kill $first; fail "the first run wrote nothing"; }
  sleep 0.05
done
"$CAPTURE" --trace twice.trace -- "$APP" > b.out 2> b.err
second=$?
kill -TERM $first
wait $first
[ "$second" = 1 ] || { cat b.err >&2; fail "the second run over a trace being written: status $second, expected 1"; }
grep -q "another capture is writing it now" b.err || { cat b.err >&2; fail "no word of the clash"; }
apitrace dump twice.trace > /dev/null 2> dump.err || { cat dump.err >&2; fail "the first run's trace"; }

# A fork() child that makes its own device is traced into a file of its own.
"$CAPTURE" --trace fork.trace --json -o fork.json -- "$APP" --fork > fork.out 2> fork.err ||
  { cat fork.err >&2; fail "--fork"; }
[ "$(jq '.traces | length' fork.json)" = 2 ] || { cat fork.json fork.err >&2; fail "--fork: not two traces"; }
for t in fork*.trace; do
  [ "$(dumped vkQueueSubmit "$t")" = 1 ] || fail "$t: not one submit"
done
exit 0
