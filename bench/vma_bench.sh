#!/usr/bin/env bash
# trak-stat on VMA recordings against `wc -l` on the same file (the I/O floor),
# in one run, on a warm page cache; also trak-replay --simulate and trak-replay
# on a Vulkan device (Mesa's lavapipe, named through VK_DRIVER_FILES). The
# recordings are generated (bench/vma_gen.cpp: 1.8, several threads, pools,
# every function, real files' quirks).
#
# trak-stat and `wc -l` are timed in pairs of rounds (a few runs of each, one
# right after the other), and the ratio is the median of the rounds' ratios:
# a shared VM changes speed by a third from one minute to the next, and two
# long blocks of runs one after the other can land in different phases.
# usage: bench/vma_bench.sh [CALLS...] [-- ROUNDS]
#   (defaults: 300000 and 2000000 calls, 10 rounds of 3 runs each)
. "$(dirname "$0")/lib.sh"
sizes=() rounds=10
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then rounds=$2; shift 2; else sizes+=("$1"); shift; fi
done
[ ${#sizes[@]} -gt 0 ] || sizes=(300000 2000000)
bench_need_hyperfine
bench_build
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lavapipe=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
[ -f "$lavapipe" ] || { echo "vma_bench: $lavapipe missing (install mesa-vulkan-drivers)" >&2; exit 1; }
export VK_DRIVER_FILES=$lavapipe VK_ICD_FILENAMES=$lavapipe
stat=build-release/tools/stat/trak-stat replay=build-release/tools/replay/trak-replay
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $rounds rounds"
echo "device: $($replay --list-devices | head -n 1)"
# Median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for calls in "${sizes[@]}"; do
  rec=$work/rec-$calls.csv
  build-release/bench/vma-gen "$calls" 4 1 >"$rec"
  # CPU steal while timing (/proc/stat's 8th field), a hint for noisy numbers.
  steal0=$(awk '/^cpu /{print $9; t=0; for(i=2;i<=NF;i++) t+=$i; print t}' /proc/stat | paste -sd' ')
  : >"$work/rounds"
  for ((r = 0; r < rounds; r++)); do
    hyperfine -N --warmup 1 --runs 3 --export-json "$work/t.json" "wc -l $rec" "$stat $rec" >/dev/null 2>&1
    jq -r '[.results[0].median, .results[1].median] | @tsv' "$work/t.json" >>"$work/rounds"
  done
  w=$(cut -f1 "$work/rounds" | median)
  t=$(cut -f2 "$work/rounds" | median)
  ratio=$(awk '{ print $2 / $1 }' "$work/rounds" | median)
  spread=$(awk '{ print $2 / $1 }' "$work/rounds" | sort -g | sed -n '1p;$p' | paste -sd' ')
  hyperfine -N --warmup 1 --runs 5 --export-json "$work/t.json" "$replay --simulate $rec" "$replay $rec" >/dev/null 2>&1
  s=$(jq -r '.results[0].median' "$work/t.json")
  d=$(jq -r '.results[1].median' "$work/t.json")
  steal1=$(awk '/^cpu /{print $9; t=0; for(i=2;i<=NF;i++) t+=$i; print t}' /proc/stat | paste -sd' ')
  echo "recording: $calls calls, $(stat -c %s "$rec") bytes"
  awk -v w="$w" -v t="$t" -v q="$ratio" -v sp="$spread" 'BEGIN { split(sp, m, " ");
    printf "  wc -l %.1f ms   trak-stat %.1f ms   trak-stat / wc = %.2fx (median of rounds, %.2f-%.2fx; target <= 3x)\n", w * 1000, t * 1000, q, m[1], m[2] }'
  awk -v s="$s" 'BEGIN { printf "  trak-replay --simulate %.1f ms (target < 1 s)\n", s * 1000 }'
  awk -v d="$d" -v s="$s" 'BEGIN { printf "  trak-replay on lavapipe %.1f ms (target < 10 s), %.1fx --simulate\n", d * 1000, d / s }'
  echo "$steal0 $steal1" | awk '{ if ($4 > $2) printf "  CPU steal during the run: %.1f %%\n", 100 * ($3 - $1) / ($4 - $2) }'
  rm -f "$rec"
done
