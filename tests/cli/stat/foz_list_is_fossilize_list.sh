# The oracle: for every tag, the hashes --list --tag prints are what fossilize-list --tag prints, on a
# capture, 1500 synthetic compute pipelines, ray tracing, and archives with a torn tail.
fz="$DATA/../../../shared/tools/fossilize/bin/fossilize-list"
[ -x "$fz" ] || { echo "needs Fossilize's fossilize-list (../shared/tools/fossilize) as the oracle" >&2; exit 77; }
for a in vkcube.72991ed96a80f842.1.foz synth_compute.foz raytracing/raytracing.foz edge/truncated_payload.foz \
  edge/truncated_header.foz edge/torn_then_appended.foz edge/torn_before_append.foz edge/tiny_one_sampler.foz; do
  n=0
  for t in 0 1 2 3 4 5 6 7 8 9 10; do
    "$fz" "$DATA/foz/$a" --tag $t >fz.txt 2>/dev/null || echo "$a: fossilize-list --tag $t failed"
    "$STAT" "$DATA/foz/$a" --list --tag $t 2>/dev/null | cut -d' ' -f2 >trak.txt
    cmp -s fz.txt trak.txt || echo "$a: tag $t differs"
    n=$((n + $(wc -l <trak.txt)))
  done
  [ "$("$STAT" "$DATA/foz/$a" --list 2>/dev/null | wc -l)" = $n ] || echo "$a: --list is not the tags' lists together"
  echo "$a: $n entries, same"
done
