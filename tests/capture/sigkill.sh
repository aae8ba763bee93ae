# Killed with SIGKILL in the middle of creating pipelines (no handler, no
# exit code runs), the process leaves an archive that reads and replays up
# to its last whole entry.
. "$SRC/lib.sh"
# exec: $! is then the program itself, which kill_at_size kills.
with_layer exec env TRAK_CAPTURE_FOZ=$work/killed \
  "$STORM" --threads 2 --graphics 20000 --compute 0 > storm.out 2> storm.err &
kill_at_size "killed.*.foz" 200000 $!
n=$(count 6 killed.*.foz)
[ "$n" -gt 100 ] && [ "$n" -lt 20000 ] || fail "$n graphics pipelines"
"$STAT" killed.*.foz > stat.out 2> stat.err || { cat stat.err >&2; fail "trak-stat on the killed archive"; }
grep -q "CRC failures           0" stat.out || fail "CRC failures"
grep -q "dangling references    0" stat.out || fail "dangling references"
replays killed.*.foz
