# Killed with SIGKILL in the middle of creating pipelines (no handler, no
# exit code runs), the process leaves an archive that reads and replays up
# to its last whole entry.
. "$SRC/lib.sh"
VK_ADD_LAYER_PATH=$LAYER_DIR VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture TRAK_CAPTURE_FOZ=$work/killed \
  "$STORM" --threads 2 --graphics 20000 --compute 0 > storm.out 2> storm.err &
pid=$!
i=0
until [ "$(cat killed.*.foz 2>/dev/null | wc -c)" -gt 200000 ]; do
  i=$((i + 1)); [ $i -lt 600 ] || { kill -9 $pid; fail "the archive did not grow"; }
  kill -0 $pid 2>/dev/null || fail "the program ended before it was killed"
  sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
n=$(count 6 killed.*.foz)
[ "$n" -gt 100 ] && [ "$n" -lt 20000 ] || fail "$n graphics pipelines"
"$STAT" killed.*.foz > stat.out 2> stat.err || { cat stat.err >&2; fail "trak-stat on the killed archive"; }
grep -q "CRC failures           0" stat.out || fail "CRC failures"
grep -q "dangling references    0" stat.out || fail "dangling references"
replays killed.*.foz
