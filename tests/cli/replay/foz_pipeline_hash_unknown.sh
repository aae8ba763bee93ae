# A hash no pipeline has is a mistake, not an empty run.
"$REPLAY" "$DATA/foz/synth_compute.foz" --null-device --pipeline-hash deadbeef
