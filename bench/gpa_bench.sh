#!/usr/bin/env bash
# The profiler benchmark (issue 18): what `trak-gpa profile` costs vkcube on
# lavapipe, sampling every command buffer (goal: <= 5 % fewer frames per
# second) and every draw (reported), with the default counters and with GPU
# times only (":none"), and what one sample costs the layer.
# The configurations alternate round by round, the first one rotating, so
# that drift and CPU steal on a shared VM fall on all of them alike.
# usage: bash bench/gpa_bench.sh [REPS]      (default 7; BENCH_FRAMES, default 2000)
# Prints medians and ratios; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-7}
frames=${BENCH_FRAMES:-2000}

# The layer and tool as users get them: a release build.
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release >/dev/null
ninja -C build-release -j2 tools/gpa/trak-gpa layers/gpa/libVkLayer_trak_gpa.so >/dev/null
gpa=$PWD/build-release/tools/gpa/trak-gpa

icd=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
unset VK_INSTANCE_LAYERS VK_ADD_LAYER_PATH TRAK_GPA_PROFILE
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
x() { xvfb-run -a -s "-screen 0 1280x1024x24 +extension GLX" "$@"; }

configs=(none command-buffer command-buffer:none draw draw:none)
run() {  # config round -> prints wall seconds; keeps the profile's JSON
  local start end
  start=$(date +%s.%N)
  case $1 in
    none) x vkcube --c "$frames" > /dev/null 2>&1 ;;
    *:none) x "$gpa" profile --per "${1%:none}" --counters none -o "$work/$1.$2.json" -- vkcube --c "$frames" \
      > /dev/null 2>&1 ;;
    *) x "$gpa" profile --per "$1" -o "$work/$1.$2.json" -- vkcube --c "$frames" > /dev/null 2>&1 ;;
  esac
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

for ((r = 0; r < reps; r++)); do
  for ((k = 0; k < ${#configs[@]}; k++)); do
    c=${configs[$(((k + r) % ${#configs[@]}))]}
    run "$c" "$r" >> "$work/$c.wall"
  done
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
base=$(median < "$work/none.wall")
echo "vkcube --c $frames on lavapipe, $reps rounds, medians (machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-16s %10s %10s %10s %16s %16s\n' config wall_s fps fps_loss samples cpu_ns/sample
for c in "${configs[@]}"; do
  w=$(median < "$work/$c.wall")
  fps=$(echo "$frames / $w" | bc -l)
  loss=$(echo "100 * ($w - $base) / $w" | bc -l)
  if [ "$c" = none ]; then
    printf '%-16s %10.3f %10.1f %10s %16s %16s\n' "$c" "$w" "$fps" - - -
  else
    samples=$(for f in "$work/$c".*.json; do jq '.samples | length' "$f"; done | median)
    per=$(for f in "$work/$c".*.json; do jq '.layer_cpu_ns / (.samples | length)' "$f"; done | median)
    printf '%-16s %10.3f %10.1f %9.2f%% %16s %16.0f\n' "$c" "$w" "$fps" "$loss" "$samples" "$per"
  fi
done
