#!/usr/bin/env bash
# trak-stat on VMA recordings against `wc -l` on the same file (the I/O floor),
# in one run, on a warm page cache; also trak-replay --simulate and trak-replay
# on a Vulkan device (Mesa's lavapipe, named through VK_DRIVER_FILES). The
# recordings are generated (bench/vma_gen.cpp: 1.8, several threads, pools,
# every function, real files' quirks).
# usage: bench/vma_bench.sh [CALLS...] [-- RUNS]
#   (defaults: 300000 and 2000000 calls, 10 runs each)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=() runs=10
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then runs=$2; shift 2; else sizes+=("$1"); shift; fi
done
[ ${#sizes[@]} -gt 0 ] || sizes=(300000 2000000)
command -v hyperfine >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine jq >/dev/null
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release -Dtests=false >/dev/null
ninja -C build-release -j2 >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lavapipe=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
[ -f "$lavapipe" ] || { echo "vma_bench: $lavapipe missing (install mesa-vulkan-drivers)" >&2; exit 1; }
export VK_DRIVER_FILES=$lavapipe VK_ICD_FILENAMES=$lavapipe
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $runs runs each"
echo "device: $(build-release/tools/replay/trak-replay --list-devices | head -n 1)"
for calls in "${sizes[@]}"; do
  rec=$work/rec-$calls.csv
  build-release/bench/vma-gen "$calls" 4 1 >"$rec"
  # CPU steal while timing (/proc/stat's 8th field), a hint for noisy numbers.
  steal0=$(awk '/^cpu /{print $9; t=0; for(i=2;i<=NF;i++) t+=$i; print t}' /proc/stat | paste -sd' ')
  hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/t.json" "wc -l $rec" \
    "build-release/tools/stat/trak-stat $rec" "build-release/tools/replay/trak-replay --simulate $rec" \
    "build-release/tools/replay/trak-replay $rec" >/dev/null 2>&1
  steal1=$(awk '/^cpu /{print $9; t=0; for(i=2;i<=NF;i++) t+=$i; print t}' /proc/stat | paste -sd' ')
  w=$(jq -r '.results[0].median' "$work/t.json")
  t=$(jq -r '.results[1].median' "$work/t.json")
  r=$(jq -r '.results[2].median' "$work/t.json")
  d=$(jq -r '.results[3].median' "$work/t.json")
  echo "recording: $calls calls, $(stat -c %s "$rec") bytes"
  awk -v w="$w" -v t="$t" 'BEGIN { printf "  wc -l %.1f ms   trak-stat %.1f ms   trak-stat / wc = %.2fx (target <= 3x)\n", w * 1000, t * 1000, t / w }'
  awk -v r="$r" 'BEGIN { printf "  trak-replay --simulate %.1f ms (target < 1 s)\n", r * 1000 }'
  awk -v d="$d" -v r="$r" 'BEGIN { printf "  trak-replay on lavapipe %.1f ms (target < 10 s), %.1fx --simulate\n", d * 1000, d / r }'
  echo "$steal0 $steal1" | awk '{ if ($4 > $2) printf "  CPU steal during the run: %.1f %%\n", 100 * ($3 - $1) / ($4 - $2) }'
  rm -f "$rec"
done
