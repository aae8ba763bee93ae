# An input whose container is cut short between two whole calls is repacked
# whole: one warning, exit 0, and an output that is a complete container
# holding every call (apitrace dumps it as it dumps the cut input; trak reads
# it without a word), to a file and to a pipe. Cut inside a call, the repack
# fails and keeps OUT.partial (truncated_input, partial_whole_events).
head -c -8 "$DATA/gears.gz.trace" >gz-no-trailer.trace
cp "$DATA/gears.trunc.trace" snappy-chunk-cut.trace
head -c 31431 "$DATA/gears.br.trace" >br-between-calls.trace
for f in gz-no-trailer snappy-chunk-cut br-between-calls; do
  for codec in gzip snappy brotli; do
    "$REPACK" $f.trace out.trace --codec $codec -q --verify 2>>warnings.txt
    r=$?
    apitrace dump $f.trace >a.txt 2>/dev/null
    apitrace dump out.trace >b.txt 2>apitrace.err
    [ -s apitrace.err ] && cat apitrace.err
    "$CONVERT" out.trace >c.txt
    c=$?
    echo "$f to $codec: repack $r, output read by trak with exit $c, $(cmp -s a.txt b.txt && cmp -s a.txt c.txt && echo same dumps)"
  done
done
("$REPACK" gz-no-trailer.trace - --codec gzip -q 2>>warnings.txt; echo $? >rc) | cat >pipe.gz
gzip -t pipe.gz && echo "to a pipe: repack $(cat rc), a complete gzip stream"
sort -u warnings.txt
