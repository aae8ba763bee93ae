shared="$DATA/foz"
# Without a terminal, --progress writes key=value lines; the last says "final".
"$REPLAY" "$shared/synth_compute.foz" --null-device --range compute:0-99 --progress 2>&1 >/dev/null |
  tail -n 1
