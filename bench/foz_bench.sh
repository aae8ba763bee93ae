#!/usr/bin/env bash
# trak-merge and trak-stat on generated .foz archives against their floors, in
# one run: merge against a raw copy of the same inputs (cat into one file, and
# cp), stat against inflating every entry in a minimal zlib loop
# (bench/foz_inflate_limit.cpp). The archives are layer-like (bench/foz_gen.cpp):
# three inputs sharing layouts, modules and 10 % of their pipelines.
# usage: bench/foz_bench.sh [PIPELINES_PER_INPUT] [RUNS]   (defaults: 35000, 10)
. "$(dirname "$0")/lib.sh"
pipelines=${1:-35000}
runs=${2:-10}
bench_need_hyperfine
bench_build tools/merge/trak-merge tools/stat/trak-stat bench/foz-gen bench/foz-inflate-limit
bench_scratch foz-bench
cd "$work"
for i in 1 2 3; do "$b/bench/foz-gen" in$i.foz "$pipelines" $((i * 101)) $((pipelines / 10)) 7 2>/dev/null; done
"$b/tools/merge/trak-merge" -q --no-progress -o merged.foz in1.foz in2.foz in3.foz
ins=$(stat -c %s in1.foz in2.foz in3.foz | paste -sd+ | bc)
entries=$("$b/tools/stat/trak-stat" merged.foz --json | jq .entries)
echo "inputs: 3 archives, $ins bytes; merged: $entries entries, $(stat -c %s merged.foz) bytes; $(nproc) cores, $runs runs"
mkdir -p cpdir
hyperfine --warmup 2 --runs "$runs" --export-json t.json \
  --prepare 'rm -f out.foz cat.foz cpdir/*' \
  'cat in1.foz in2.foz in3.foz > cat.foz' \
  'cp in1.foz in2.foz in3.foz cpdir/' \
  "$b/tools/merge/trak-merge -q --no-progress -o out.foz in1.foz in2.foz in3.foz" \
  "$b/bench/foz-inflate-limit merged.foz" \
  "$b/tools/stat/trak-stat --no-progress --json merged.foz" >/dev/null 2>&1
m() { jq -r ".results[$1].median" t.json; }
# CPU seconds (user + system, mean): on a shared machine the wall clock also
# counts time spent preempted, which favours the shortest command.
c() { jq -r ".results[$1] | .user + .system" t.json; }
awk -v c="$(m 0)" -v p="$(m 1)" -v g="$(m 2)" -v n="$ins" 'BEGIN {
  printf "cat %.1f ms   cp %.1f ms   trak-merge %.1f ms (%.0f MB/s of input)\n", c * 1000, p * 1000, g * 1000, n / g / 1e6
  printf "merge speed / cat speed = %.0f %%   / cp speed = %.0f %% (target >= 50 %%)\n", 100 * c / g, 100 * p / g }'
awk -v l="$(m 3)" -v s="$(m 4)" -v n="$(stat -c %s merged.foz)" 'BEGIN {
  printf "inflate loop %.1f ms   trak-stat %.1f ms (%.0f MB/s of archive)\n", l * 1000, s * 1000, n / s / 1e6
  printf "stat speed / codec limit = %.0f %% (target >= 50 %%)\n", 100 * l / s }'
awk -v c="$(c 0)" -v g="$(c 2)" -v l="$(c 3)" -v s="$(c 4)" 'BEGIN {
  printf "CPU time: cat %.1f ms, trak-merge %.1f ms (%.0f %%); inflate loop %.1f ms, trak-stat %.1f ms (%.0f %%)\n",
    c * 1000, g * 1000, 100 * c / g, l * 1000, s * 1000, 100 * l / s }'
