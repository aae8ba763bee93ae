"$REPLAY" "$DATA/../../../shared/data/foz/synth_compute.foz" --null-device --range mesh:1-2
