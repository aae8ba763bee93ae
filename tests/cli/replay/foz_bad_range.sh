shared="$DATA/foz"
"$REPLAY" "$shared/synth_compute.foz" --null-device --range mesh:1-2
