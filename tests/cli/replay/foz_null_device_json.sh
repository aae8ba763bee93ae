# Parse-only: every object parsed and dispatched, nothing created, no device needed.
cp "$DATA/../../../shared/data/foz/edge/truncated_header.foz" .
"$REPLAY" truncated_header.foz "$DATA/../../../shared/data/foz/synth_compute.foz" --null-device --jobs 1 --json |
  jq -c '{device, graphics, compute, raytracing, faulty, failed}'
