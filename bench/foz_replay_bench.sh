#!/usr/bin/env bash
# The .foz replay benchmark (issue 5). Builds build-release/, generates an
# archive of COUNT real compute-pipeline variants (foz-replay-gen), checks that the
# generator files synth_compute's own pipelines under their Fossilize hashes,
# then, alternating runs, times on lavapipe:
#   - the driver alone: foz-direct, a bare create/destroy loop over the parsed
#     pipelines (its loop time, setup excluded), 1 and 2 threads;
#   - trak-replay --jobs 1 and --jobs 2, the whole command (wall clock);
#   - trak-replay --null-device --jobs 1 (parse and dispatch only) on a
#     10x larger archive.
# Prints medians, pipelines/s and trak's share of the driver's rate, plus the
# CPU seconds of each (the driver's: its loop only; trak's: the whole command
# with its workers), which CPU steal on a shared machine distorts less.
# usage: bash bench/foz_replay_bench.sh [COUNT] [RUNS]
. "$(dirname "$0")/lib.sh"
count=${1:-6000}
runs=${2:-5}
shared=../shared/data/foz
bench_build tools/replay/trak-replay bench/foz-replay-gen bench/foz-direct
icd=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
export MESA_SHADER_CACHE_DISABLE=true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
replay=build-release/tools/replay/trak-replay

build-release/bench/foz-replay-gen "$shared/synth_compute.foz" "$work/bench.foz" "$count"
build-release/bench/foz-replay-gen "$shared/synth_compute.foz" "$work/parse.foz" $((count * 10)) 2>/dev/null
# Hash check: the variants with synth_compute's own constants (workgroup 64,
# ITER 0..1499, SCALE 1.5) must come out under the hashes fossilize-synth gave them.
"$replay" "$shared/synth_compute.foz" --null-device --skip-done "$work/orig.done" >/dev/null
"$replay" "$work/bench.foz" --null-device --skip-done "$work/orig.done" --json >"$work/check.json"
echo "hash check: $(jq .compute.already_done "$work/check.json") of synth_compute's 1500 pipelines regenerated under the same hash"

cpu() { awk '{print $1 + $2}' "$1"; }  # user + sys seconds from /usr/bin/time -f "%U %S"
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A wall cpus
for j in 1 2; do
  for ((r = 0; r < runs; r++)); do
    start=$(date +%s.%N)
    build-release/bench/foz-direct "$work/bench.foz" "$j" >"$work/d"
    echo "$(date +%s.%N) - $start" | bc >>"$work/whole$j"
    awk '{print $2}' "$work/d" >>"$work/direct$j"
    awk '{print $3}' "$work/d" >>"$work/direct$j.cpu"
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$work/t" "$replay" "$work/bench.foz" --jobs "$j" --json >"$work/r.json"
    echo "$(date +%s.%N) - $start" | bc >>"$work/trak$j"
    cpu "$work/t" >>"$work/trak$j.cpu"
    [ "$(jq .compute.ok "$work/r.json")" = "$count" ] || { echo "trak-replay did not create every pipeline" >&2; exit 1; }
  done
  wall[direct$j]=$(median <"$work/direct$j")
  wall[whole$j]=$(median <"$work/whole$j")
  wall[trak$j]=$(median <"$work/trak$j")
  cpus[direct$j]=$(median <"$work/direct$j.cpu")
  cpus[trak$j]=$(median <"$work/trak$j.cpu")
done
for ((r = 0; r < runs; r++)); do
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$work/t" "$replay" "$work/parse.foz" --null-device --jobs 1 >/dev/null
  echo "$(date +%s.%N) - $start" | bc >>"$work/null"
  cpu "$work/t" >>"$work/null.cpu"
done
wall[null]=$(median <"$work/null")
cpus[null]=$(median <"$work/null.cpu")

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "archive: $count compute pipelines ($(stat -c %s "$work/bench.foz") bytes); parse-only: $((count * 10))"
printf '%-34s %10s %12s %12s\n' "run (median of $runs)" "wall s" "pipelines/s" "CPU s"
for j in 1 2; do
  printf '%-34s %10.3f %12.0f %12.3f\n' "driver alone, $j thread(s): loop" "${wall[direct$j]}" \
    "$(echo "$count / ${wall[direct$j]}" | bc -l)" "${cpus[direct$j]}"
  printf '%-34s %10.3f %12.0f\n' "  the same program, whole" "${wall[whole$j]}" "$(echo "$count / ${wall[whole$j]}" | bc -l)"
  printf '%-34s %10.3f %12.0f %12.3f\n' "trak-replay --jobs $j" "${wall[trak$j]}" \
    "$(echo "$count / ${wall[trak$j]}" | bc -l)" "${cpus[trak$j]}"
  printf '  trak / driver: %.1f %% of the loop'"'"'s rate, %.1f %% of the whole program'"'"'s (wall), %.1f %% (CPU)\n' \
    "$(echo "100 * ${wall[direct$j]} / ${wall[trak$j]}" | bc -l)" "$(echo "100 * ${wall[whole$j]} / ${wall[trak$j]}" | bc -l)" \
    "$(echo "100 * ${cpus[direct$j]} / ${cpus[trak$j]}" | bc -l)"
done
printf '%-34s %10.3f %12.0f %12.3f\n' "trak-replay --null-device --jobs 1" "${wall[null]}" \
  "$(echo "$((count * 10)) / ${wall[null]}" | bc -l)" "${cpus[null]}"
printf '  parse-only: %.0f pipelines/s (wall), %.0f per CPU second\n' "$(echo "$((count * 10)) / ${wall[null]}" | bc -l)" \
  "$(echo "$((count * 10)) / ${cpus[null]}" | bc -l)"
