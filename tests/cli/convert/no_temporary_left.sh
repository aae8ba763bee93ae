# An interrupted conversion leaves no temporary next to its output: the
# output is written unnamed (O_TMPFILE) until it is complete, so neither
# SIGTERM, SIGHUP nor SIGKILL leaves a file behind, and an old output stays.
# (SIGINT is ignored by a background job of a script: it cannot be sent here.)
mkfifo in.fifo
echo old >out.jsonl
for sig in TERM HUP KILL; do
  (cat "$DATA/gears.trace"; sleep 2) >in.fifo &
  feeder=$!
  "$CONVERT" in.fifo --to jsonl -o out.jsonl 2>/dev/null &
  pid=$!
  sleep 0.5
  kill -$sig $pid
  wait $pid
  echo "$sig: exit $?, $(ls -A | grep -c 'trak-') temporaries, out.jsonl: $(head -c 20 out.jsonl)"
  kill $feeder 2>/dev/null
  wait $feeder 2>/dev/null
done
true
