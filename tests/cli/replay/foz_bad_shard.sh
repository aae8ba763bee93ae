"$REPLAY" "$DATA/../../../shared/data/foz/synth_compute.foz" --null-device --shard 4/4
