# Nothing says which part this is: a usage error, not the whole archive run on every machine.
env -i PATH="$PATH" "$REPLAY" "$DATA/foz/synth_compute.foz" --null-device --shard auto
