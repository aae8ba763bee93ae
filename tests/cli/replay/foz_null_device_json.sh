shared="$DATA/foz"
# Parse-only: every object parsed and dispatched, nothing created, no device needed.
cp "$shared/edge/truncated_header.foz" .
"$REPLAY" truncated_header.foz "$shared/synth_compute.foz" --null-device --jobs 1 --json |
  jq -c '{device, graphics, compute, raytracing, faulty, failed}'
