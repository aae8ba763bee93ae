shared="$DATA/../../../shared/data/foz"
[ -d "$shared" ] || exit 77
"$REPLAY" "$shared/synth_compute.foz" --null-device --range mesh:1-2
