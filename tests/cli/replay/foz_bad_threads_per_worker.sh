"$REPLAY" "$DATA/foz/synth_compute.foz" --null-device --threads-per-worker 257
