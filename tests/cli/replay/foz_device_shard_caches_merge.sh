# needs: vulkan device
shared="$DATA/foz"
# Two machines' shards, each with its cache; then, with no archive, one cache of both.
foz="$shared/synth_compute.foz"
for i in 0 1; do "$REPLAY" "$foz" --range 0-9 --shard $i/2 --pipeline-cache part$i.bin --json | jq -c .compute.ok; done
printf 'not a cache' > junk.bin
"$REPLAY" --load-cache part0.bin --load-cache junk.bin --load-cache part1.bin --pipeline-cache all.bin --json |
  jq -c '{merged, skipped: [.skipped[].file]}'
[ -s all.bin ] && echo "all.bin written"
