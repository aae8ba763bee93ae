# Repeatable options take one value each: the archive after them is an input.
"$REPLAY" --range compute:0-1 --range compute:5 "$DATA/../../../shared/data/foz/synth_compute.foz" --null-device --json |
  jq -c '.compute | {total, ok}'
