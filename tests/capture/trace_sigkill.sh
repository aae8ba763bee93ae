# Killed with SIGKILL while it traces (no exit code runs): the stream reads
# up to a whole call near the kill, for apitrace as for trak.
. "$SRC/lib.sh"
need_apitrace
# exec: $! is then the program itself, which kill_at_size kills.
with_layer exec env TRAK_CAPTURE_TRACE=$work/killed.trace \
  "$APPS/capture_trace_threads" --threads 2 --rounds 1000000 > app.out 2> app.err &
kill_at_size "killed.trace" 300000 $!
apitrace dump killed.trace > dump.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump of the killed trace"; }
# Chunks end at whole calls (but for calls larger than a chunk): nothing cut.
"$STAT" --json killed.trace > stat.json 2> stat.err || { cat stat.err >&2; fail "trak-stat of the killed trace"; }
[ "$(jq .calls stat.json)" -gt 1000 ] || fail "$(jq .calls stat.json) calls"
[ "$(jq '.calls' stat.json)" -ge "$(grep -c '^[0-9]' dump.txt)" ] || fail "trak-stat reads fewer calls than apitrace"
exit 0
