# A resume database leaves out what is done; a loop does it again: one or the other.
"$REPLAY" "$DATA/foz/synth_compute.foz" --null-device --range 0-9 --loop 2 --skip-done d.foz
