#!/usr/bin/env bash
# Times trak against apitrace on the same trace, in one run, and prints the
# ratios the foundation issue asks for:
#   1. trak-convert text dump vs `apitrace dump` (byte-identical output checked
#      first), to /dev/null and to a file;
#   2. trak-stat vs the raw snappy decompression limit of the same file;
#   3. trak-repack snappy->gzip and snappy->brotli vs `apitrace repack`, with
#      the output sizes.
# usage: bench/trace_bench.sh [TRACE] [RUNS]
#   TRACE defaults to a glmark2 trace recorded here with apitrace (needs Xvfb);
#   RUNS (default 5) is per measurement; brotli quality 11 runs 3 times
#   (BENCH_SKIP_Q11=1 leaves it out: it takes minutes).
# Medians come from hyperfine. Nothing here is asserted: it reports.
. "$(dirname "$0")/lib.sh"
trace=${1:-}
runs=${2:-5}

need=()
for p in apitrace hyperfine jq; do command -v "$p" >/dev/null || need+=("$p"); done
if ((${#need[@]})); then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

bench_build
bin=build-release/tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$trace" ]; then
  trace=build-release/glmark.trace
  if [ ! -f "$trace" ]; then
    echo "bench: recording $trace with apitrace + glmark2 under Xvfb" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq apitrace-tracers xvfb glmark2-x11 >/dev/null
    xvfb-run -a -s "-screen 0 640x480x24" apitrace trace -o "$trace" \
      glmark2 -s 128x128 -b build:duration=2 -b texture:duration=2 -b shading:duration=2 >/dev/null 2>&1
  fi
fi

# The snappy baseline and the repack sources need a snappy file.
snappy=$work/in.trace
"$bin/convert/trak-repack" "$trace" "$snappy" --codec snappy -q

median() { jq -r '.results[0].median' "$1"; }
time_one() {  # NAME COMMAND... -> median seconds, hyperfine JSON in $work/NAME.json
  local name=$1 n=$runs
  shift
  [ "${BENCH_RUNS_OVERRIDE:-}" ] && n=$BENCH_RUNS_OVERRIDE
  hyperfine -N --warmup 1 --runs "$n" --output="${OUTPUT:-null}" --export-json "$work/$name.json" "$@" >/dev/null 2>&1
  median "$work/$name.json"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.1f ms", a * 1000 }'; }

stream=$("$bin/stat/trak-stat" --json "$snappy" | jq -r '.stream_bytes')
echo "trace: $trace ($(stat -c %s "$trace") bytes, $stream bytes of stream), $runs runs each, $(nproc) cores"
echo

# 1. dump
apitrace dump "$snappy" >"$work/apitrace.txt" 2>/dev/null || true
"$bin/convert/trak-convert" "$snappy" >"$work/trak.txt" 2>/dev/null || true
if cmp -s "$work/apitrace.txt" "$work/trak.txt"; then same="byte-identical"; else same="OUTPUT DIFFERS"; fi
a=$(time_one dump-apitrace "apitrace dump $snappy")
t=$(time_one dump-trak "$bin/convert/trak-convert $snappy")
echo "dump to /dev/null:   apitrace $(ms "$a")   trak $(ms "$t")   ratio $(ratio "$a" "$t")x   ($same)"
a=$(OUTPUT=$work/out-a.txt time_one dumpf-apitrace "apitrace dump $snappy")
t=$(time_one dumpf-trak "$bin/convert/trak-convert $snappy -o $work/out-t.txt")
echo "dump to a file:      apitrace $(ms "$a")   trak $(ms "$t")   ratio $(ratio "$a" "$t")x"

# 2. stat vs the codec limit
l=$(time_one limit "build-release/bench/snappy-limit $snappy")
s=$(time_one stat "$bin/stat/trak-stat $snappy")
i=$(time_one info "apitrace info $snappy")
echo "stat:                snappy-limit $(ms "$l")   trak-stat $(ms "$s")   = $(awk -v l="$l" -v s="$s" 'BEGIN { printf "%.0f", 100 * l / s }')% of the codec limit   (apitrace info $(ms "$i"))"

# 3. repack
a=$(time_one gz-apitrace "apitrace repack -z $snappy $work/a.gz")
t=$(time_one gz-trak "$bin/convert/trak-repack $snappy $work/t.gz --codec gzip -q")
echo "repack -> gzip:      apitrace $(ms "$a") ($(stat -c %s "$work/a.gz") B)   trak $(ms "$t") ($(stat -c %s "$work/t.gz") B)   ratio $(ratio "$a" "$t")x"
if [ -z "${BENCH_SKIP_Q11:-}" ]; then
  a=$(BENCH_RUNS_OVERRIDE=3 time_one br-apitrace "apitrace repack -b $snappy $work/a.br")
  t=$(BENCH_RUNS_OVERRIDE=3 time_one br-trak "$bin/convert/trak-repack $snappy $work/t.br --codec brotli -q")
  echo "repack -> brotli 11: apitrace $(ms "$a") ($(stat -c %s "$work/a.br") B)   trak $(ms "$t") ($(stat -c %s "$work/t.br") B)   ratio $(ratio "$a" "$t")x"
fi
a=$(time_one br5-apitrace "apitrace repack --brotli=5 $snappy $work/a5.br")
t=$(time_one br5-trak "$bin/convert/trak-repack $snappy $work/t5.br --codec brotli --level 5 -q")
echo "repack -> brotli 5:  apitrace $(ms "$a") ($(stat -c %s "$work/a5.br") B)   trak $(ms "$t") ($(stat -c %s "$work/t5.br") B)   ratio $(ratio "$a" "$t")x"
