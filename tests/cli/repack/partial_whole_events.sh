# A trace cut anywhere: trak-repack fails (exit 1) and keeps OUT.partial, a
# shorter trace that ends at its last whole event, so that trak-convert and
# apitrace both read it to its end, and alike.
for n in 20000 50000 68000; do
  head -c $n "$DATA/gears.trace" >cut.trace
  for codec in snappy gzip; do
    "$REPACK" cut.trace out.trace --codec $codec 2>/dev/null
    r=$?
    "$CONVERT" out.trace.partial >a.txt; c=$?
    apitrace dump out.trace.partial >b.txt 2>/dev/null
    cmp -s a.txt b.txt && same=same || same=different
    echo "$n $codec: repack $r, convert $c, $(wc -l <a.txt) lines, $same as apitrace"
    rm -f out.trace.partial
  done
done
