# --shard auto: the part from a Slurm array task's or a Kubernetes indexed Job pod's variables; the
# summary says which part ran and why. (env -i: a CI runner under Slurm must not leak its own.)
foz="$DATA/foz/synth_compute.foz"
run() {
  spec=$1
  shift
  env -i PATH="$PATH" "$@" "$REPLAY" "$foz" --null-device --jobs 1 --no-progress --shard "$spec" --json |
    jq -c '[.shard, .compute.total]'
}
run auto SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3
run auto SLURM_ARRAY_TASK_ID=8 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_MAX=8 SLURM_ARRAY_TASK_STEP=1
run auto/3 JOB_COMPLETION_INDEX=2
run auto JOB_COMPLETION_INDEX=0 TRAK_SHARD_COUNT=2
env -i PATH="$PATH" SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=1 \
  "$REPLAY" "$foz" --null-device --jobs 1 --no-progress --shard auto | grep '^shard'
