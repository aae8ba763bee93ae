# A Kubernetes pod knows its index, not the Job's completions: the count must be given.
env -i PATH="$PATH" JOB_COMPLETION_INDEX=1 "$REPLAY" "$DATA/foz/synth_compute.foz" --null-device --shard auto
