#!/usr/bin/env bash
# trak-convert on a generated layer-like .foz archive (bench/foz_gen.cpp,
# >= 50k entries and >= 50 MB) against the floor of inflating every entry in a
# minimal zlib loop (bench/foz_inflate_limit.cpp), in one run: .foz -> one
# JSON document and back, .foz -> a json-dir and back (directory output is
# compared with `cp -r` of the same files: creating files is the floor there).
# usage: bench/foz_convert_bench.sh [PIPELINES] [RUNS]   (defaults: 70000, 5)
# BENCH_SKIP_DIR=1 leaves out the directory runs (minutes each: 140k files).
. "$(dirname "$0")/lib.sh"
pipelines=${1:-70000}
runs=${2:-5}
bench_need_hyperfine
bench_build tools/convert/trak-convert bench/foz-gen bench/foz-inflate-limit
c="$b/tools/convert/trak-convert --no-progress"
bench_scratch foz-convert-bench
cd "$work"
"$b/bench/foz-gen" in.foz "$pipelines" 101 2>/dev/null
$c in.foz -o doc.json
$c in.foz --to json-dir -o dir
entries=$(ls dir | wc -l)
echo "archive: $entries entries, $(stat -c %s in.foz) bytes stored, $(du -sb dir | cut -f1) bytes of JSON; document $(stat -c %s doc.json) bytes; $(nproc) cores, $runs runs"
dir_runs=()
[ -n "${BENCH_SKIP_DIR:-}" ] || dir_runs=("cp -r dir cpdir" "$c in.foz --to json-dir -o d2" "$c dir --to foz -o out2.foz")
hyperfine --warmup 1 --runs "$runs" --export-json t.json \
  --prepare 'rm -rf out.json out.foz out2.foz d2 cpdir' \
  "$b/bench/foz-inflate-limit in.foz" \
  "$c in.foz -o out.json" \
  "$c doc.json --to foz -o out.foz" \
  "${dir_runs[@]}" >/dev/null 2>&1
m() { jq -r ".results[$1].median" t.json; }
awk -v l="$(m 0)" -v j="$(m 1)" -v f="$(m 2)" -v n="$(stat -c %s in.foz)" 'BEGIN {
  printf "inflate loop %.0f ms   .foz -> json %.0f ms (%.0f MB/s of archive)   json -> .foz %.0f ms\n", l * 1000, j * 1000, n / j / 1e6, f * 1000
  printf "to json / inflate loop = %.1fx   back to .foz / inflate loop = %.1fx\n", j / l, f / l }'
[ -n "${BENCH_SKIP_DIR:-}" ] && exit 0
awk -v p="$(m 3)" -v d="$(m 4)" -v f="$(m 5)" -v e="$entries" 'BEGIN {
  printf "cp -r %.0f ms   .foz -> json-dir %.0f ms (%.0f us/file)   json-dir -> .foz %.0f ms\n", p * 1000, d * 1000, d * 1e6 / e, f * 1000
  printf "json-dir / cp -r = %.1fx\n", d / p }'
