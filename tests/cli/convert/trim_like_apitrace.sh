# --to trace cuts a trace as `apitrace trim` does: --calls, --frames (with
# their /draw, /frame spellings) and --thread, repeated and combined. apitrace
# dumps trak's cut and its own cut the same, with one difference by design: a
# call that never returned in the source (glthreads' last, gears' last) stays
# incomplete in trak's cut, where apitrace's writer makes it look finished.
for t in threads.trace threads.gz.trace apitrace-old/glthreads.trace gears.trace; do
  for o in "--thread 1" "--thread 2 --thread 0" "--frames 2-3 --thread 1" "--frames 1-4/draw" \
    "--calls 50-80 --frames 3" "--frames 0,2,5-7" "--frames 3/frame" "--frames 2-4/draw --calls */frame" \
    "--calls 3-5 --calls 10" "--frames 1 --calls 5"; do
    apitrace trim $(echo "$o" | sed 's/\(--[a-z]*\) /\1=/g') -o a.trace "$DATA/$t" >/dev/null 2>&1 || echo "apitrace trim failed"
    "$CONVERT" "$DATA/$t" $o --to trace -o b.trace || echo "trak-convert failed"
    apitrace dump a.trace >a.txt
    apitrace dump b.trace >b.txt
    echo "$t $o: $(grep -c '^[0-9]' b.txt) calls"
    diff a.txt b.txt | sed 's/^/  /'
  done
done
