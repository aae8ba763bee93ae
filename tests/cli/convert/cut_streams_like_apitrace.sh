# A trace cut inside its container: every call the decoder can still produce
# is dumped, exactly as apitrace dumps it, for brotli (whose decoder asks for
# input while it still holds decoded output), gzip and snappy alike. The
# trace is a generated recording of 100,000 calls written as a trace stream
# (about 4 MB), large enough for brotli to hold output back at a cut.
"$VMA_GEN" 100000 >g.csv 2>/dev/null
"$CONVERT" g.csv --to trace --codec brotli -o g.br.trace
for codec in brotli gzip snappy; do
  [ $codec = brotli ] || "$REPACK" g.br.trace g.$codec.trace --codec $codec -q
  f=g.$codec.trace
  [ $codec = brotli ] && f=g.br.trace
  s=$(stat -c %s $f)
  for eighth in 3 7; do
    head -c $((s * eighth / 8)) $f >cut.trace
    apitrace dump cut.trace >a.txt 2>/dev/null
    "$CONVERT" cut.trace >b.txt 2>/dev/null
    echo "$codec cut at $eighth/8: exit $?, $(cmp -s a.txt b.txt && echo same as apitrace || echo "$(wc -l <b.txt) lines, apitrace $(wc -l <a.txt)")"
  done
done
