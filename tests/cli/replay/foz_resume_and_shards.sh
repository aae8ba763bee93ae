shared="$DATA/foz"
# Three shards, each with its resume database: together they hold the range,
# and a resumed run of the whole range has nothing left to do.
foz="$shared/synth_compute.foz"
for i in 0 1 2; do
  "$REPLAY" "$foz" --null-device --range 0-59 --shard $i/3 --skip-done shard$i.foz --json | jq -c .compute.ok
done
cat shard0.foz > all.foz && tail -c +17 shard1.foz >> all.foz && tail -c +17 shard2.foz >> all.foz
"$REPLAY" "$foz" --null-device --range 0-59 --skip-done all.foz --json | jq -c '.compute | {total, ok, already_done}'
