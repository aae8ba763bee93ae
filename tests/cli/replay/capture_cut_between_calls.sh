# needs: vulkan device
# A capture whose container is cut short between two whole calls (its writer
# never closed): replayed to its end, one warning, exit 0; gzip without its
# trailer, from a file and a pipe, and snappy cut inside a next chunk's length.
"$REPACK" "$DATA/capture/threads1.trace" t.gz.trace --codec gzip -q
head -c -8 t.gz.trace >gz-no-trailer.trace
"$REPLAY" gz-no-trailer.trace >/dev/null
echo "gzip: exit $?"
"$REPLAY" - <gz-no-trailer.trace >/dev/null
echo "gzip from a pipe: exit $?"
{ cat "$DATA/capture/threads1.trace"; dd if="$DATA/capture/threads1.trace" bs=1 skip=2 count=2 2>/dev/null; } >snappy.trace
"$REPLAY" snappy.trace >/dev/null
echo "snappy: exit $?"
