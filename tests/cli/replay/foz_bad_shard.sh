shared="$DATA/foz"
"$REPLAY" "$shared/synth_compute.foz" --null-device --shard 4/4
