# sbatch --array=1,3,7: the task ids do not say which part of three this is.
env -i PATH="$PATH" SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=7 \
  SLURM_ARRAY_TASK_STEP=1 "$REPLAY" "$DATA/foz/synth_compute.foz" --null-device --shard auto
