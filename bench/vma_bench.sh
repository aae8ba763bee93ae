#!/usr/bin/env bash
# trak-stat on a VMA recording against `wc -l` on the same file (the I/O
# floor), in one run; then trak-replay on a Vulkan device (Mesa's lavapipe,
# named through VK_DRIVER_FILES) next to trak-replay --simulate. The
# recording is generated (bench/vma_gen.cpp: 1.8, several threads, pools,
# every function, real files' quirks).
# usage: bench/vma_bench.sh [CALLS] [RUNS]    (defaults: 300000 calls, 10 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-300000}
runs=${2:-10}
command -v hyperfine >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine jq >/dev/null
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release -Dtests=false >/dev/null
ninja -C build-release -j2 >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rec=$work/rec.csv
build-release/bench/vma-gen "$calls" 4 1 >"$rec"
echo "recording: $calls calls, $(stat -c %s "$rec") bytes, $(nproc) cores, $runs runs"
lavapipe=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
[ -f "$lavapipe" ] || { echo "vma_bench: $lavapipe missing (install mesa-vulkan-drivers)" >&2; exit 1; }
export VK_DRIVER_FILES=$lavapipe VK_ICD_FILENAMES=$lavapipe
build-release/tools/replay/trak-replay --list-devices | head -n 1
hyperfine -N --warmup 2 --runs "$runs" --export-json "$work/t.json" "wc -l $rec" "build-release/tools/stat/trak-stat $rec" \
  "build-release/tools/replay/trak-replay --simulate $rec" "build-release/tools/replay/trak-replay $rec" >/dev/null 2>&1
w=$(jq -r '.results[0].median' "$work/t.json")
t=$(jq -r '.results[1].median' "$work/t.json")
r=$(jq -r '.results[2].median' "$work/t.json")
d=$(jq -r '.results[3].median' "$work/t.json")
awk -v w="$w" -v t="$t" 'BEGIN { printf "wc -l %.1f ms   trak-stat %.1f ms   trak-stat / wc = %.1fx (target <= 3x)\n", w * 1000, t * 1000, t / w }'
awk -v r="$r" 'BEGIN { printf "trak-replay --simulate %.1f ms (target < 1 s)\n", r * 1000 }'
awk -v d="$d" -v r="$r" 'BEGIN { printf "trak-replay on lavapipe %.1f ms (target < 10 s), %.1fx --simulate\n", d * 1000, d / r }'
build-release/tools/replay/trak-replay "$rec" 2>/dev/null | grep -E '^Playback took|^    Total: count|Failed here'
