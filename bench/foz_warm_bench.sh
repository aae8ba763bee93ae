#!/usr/bin/env bash
# Pipeline warming against Fossilize (issue 29): on one archive and one
# device, fossilize-replay --num-threads N and trak-replay --jobs N take
# turns, for each N, RUNS times; prints each wall time, the medians and
# trak's speed as a multiple of Fossilize's (above 1: trak is faster).
# Every run must create every pipeline the archive has.
#
# usage: bash bench/foz_warm_bench.sh ARCHIVE [RUNS] [N ...]
# env:   TRAK (trak-replay), FOSSILIZE (fossilize-replay), TRAK_B (another
#        trak-replay build, run as trakB in the same turns: before/after), EXTRA_TRAK
#        (more trak runs as "label:options;label:options", e.g.
#        "t1:--threads-per-worker 1"), EXTRA_FOSSILIZE (the same for
#        fossilize-replay).
# On NVIDIA set __GL_SHADER_DISK_CACHE=0: the driver's disk cache would make
# every run after the first one a cache hit.
set -euo pipefail
archive=${1:?usage: foz_warm_bench.sh ARCHIVE [RUNS] [N ...]}
runs=${2:-3}
shift $(($# < 2 ? $# : 2))
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(16 8 4 2)
trak=${TRAK:-build-release/tools/replay/trak-replay}
fossilize=${FOSSILIZE:-../shared/tools/fossilize/bin/fossilize-replay}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
IFS=';' read -ra extra_trak <<<"${EXTRA_TRAK:-}"
IFS=';' read -ra extra_fossilize <<<"${EXTRA_FOSSILIZE:-}"

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
seconds() { # label command...: runs it, appends its wall seconds to $work/label
  local label=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" >"$work/out" 2>"$work/err" || { echo "$label failed:" >&2; tail -5 "$work/err" >&2; exit 1; }
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f\n", b - a}' >>"$work/$label"
  printf '%-22s %8.3f s\n' "$label" "$(tail -1 "$work/$label")"
}

total=$("$trak" "$archive" --null-device --jobs 1 --json --no-progress |
  jq '.graphics.total + .compute.total + .raytracing.total')
echo "archive $archive: $total pipelines; trak $("$trak" --version 2>/dev/null | head -1)"
trak_ok() { jq -e --argjson n "$total" '.graphics.ok + .compute.ok + .raytracing.ok == $n' "$work/out" >/dev/null ||
  { echo "trak-replay did not create every pipeline" >&2; exit 1; }; }

for n in "${counts[@]}"; do
  for ((r = 0; r < runs; r++)); do
    seconds "fossilize-$n" "$fossilize" "$archive" --num-threads "$n"
    seconds "trak-$n" "$trak" "$archive" --jobs "$n" --json --no-progress
    trak_ok
    if [ -n "${TRAK_B:-}" ]; then
      seconds "trakB-$n" "$TRAK_B" "$archive" --jobs "$n" --json --no-progress
      trak_ok
    fi
    for extra in "${extra_fossilize[@]}"; do
      # shellcheck disable=SC2086 # the options are words
      seconds "fossilize-$n-${extra%%:*}" "$fossilize" "$archive" --num-threads "$n" ${extra#*:}
    done
    for extra in "${extra_trak[@]}"; do
      # shellcheck disable=SC2086
      seconds "trak-$n-${extra%%:*}" "$trak" "$archive" --jobs "$n" --json --no-progress ${extra#*:}
      trak_ok
    done
  done
done

echo
printf '%-6s %-24s %10s %10s\n' N run "median s" "× fossil."
for n in "${counts[@]}"; do
  f=$(median <"$work/fossilize-$n")
  for file in "$work"/*-"$n" "$work"/*-"$n"-*; do
    [ -f "$file" ] || continue
    m=$(median <"$file")
    printf '%-6s %-24s %10.3f %10.2f\n' "$n" "$(basename "$file")" "$m" "$(awk -v a="$f" -v b="$m" 'BEGIN {print a / b}')"
  done
done
