"$REPLAY" "$DATA/foz/synth_compute.foz" --null-device --pipeline-hash 0042902a664a5875 --range 0-9
