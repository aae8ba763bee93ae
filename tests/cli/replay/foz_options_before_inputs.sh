shared="$DATA/foz"
# Repeatable options take one value each: the archive after them is an input.
"$REPLAY" --range compute:0-1 --range compute:5 "$shared/synth_compute.foz" --null-device --json |
  jq -c '.compute | {total, ok}'
