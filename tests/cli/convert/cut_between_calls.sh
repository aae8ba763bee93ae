# A container cut short where its decoded stream holds whole call events only
# (a writer never closed: the application exited or was killed) dumps every
# call with one warning and exit 0; cut inside a call, one error line and
# exit 1. Either way the calls are those apitrace dumps (apitrace exits 0).
# Each cut is made from a real trace:
#   gzip: the deflate stream whole, its 8-byte trailer gone (gears ends in an
#     entered call, texture in a left one); a cut inside a call.
#   snappy: gears.trunc (a chunk cut where its decodable part ends after call
#     1199's enter event); gears.trace and 2 bytes of a next chunk's length;
#     and a next chunk cut after its length and uncompressed size; a cut
#     inside a call.
#   brotli: 31431 bytes of gears.br end between two calls, 31430 inside one.
head -c -8 "$DATA/gears.gz.trace" >gz-no-trailer.trace
head -c -8 "$DATA/texture.gz.trace" >gz-no-trailer-texture.trace
cp "$DATA/gears.trunc.gz.trace" gz-inside-call.trace
cp "$DATA/gears.trunc.trace" snappy-chunk-cut.trace
{ cat "$DATA/gears.trace"; dd if="$DATA/gears.trace" bs=1 skip=2 count=2 2>/dev/null; } >snappy-in-length.trace
{ cat "$DATA/gears.trace"; dd if="$DATA/gears.trace" bs=1 skip=2 count=7 2>/dev/null; } >snappy-chunk-header.trace
cp "$DATA/gears.trunc60.trace" snappy-inside-call.trace
head -c 31431 "$DATA/gears.br.trace" >br-between-calls.trace
head -c 31430 "$DATA/gears.br.trace" >br-inside-call.trace
for f in gz-no-trailer gz-no-trailer-texture gz-inside-call snappy-chunk-cut snappy-in-length snappy-chunk-header \
         snappy-inside-call br-between-calls br-inside-call; do
  apitrace dump $f.trace >a.txt 2>/dev/null
  a=$?
  "$CONVERT" $f.trace >b.txt
  b=$?
  echo "$f: trak exit $b, apitrace exit $a, $(cmp -s a.txt b.txt && echo same dump || echo different dumps)"
done
