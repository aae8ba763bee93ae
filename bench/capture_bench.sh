#!/usr/bin/env bash
# The capture layer benchmark (issue 17): what VK_LAYER_TRAK_capture costs an
# application, next to Fossilize's own layer VK_LAYER_fossilize, on lavapipe.
#   1. vkcube frames per second with no layer, with trak's layer and with
#      Fossilize's (goal: trak loses <= 3 %);
#   2. per-pipeline creation overhead on capture_pipeline_storm (6,000
#      pipelines, 1 and 2 threads) (goal: no larger than Fossilize's).
# The three configurations alternate round by round, and the one that goes
# first rotates, so that drift and CPU steal on a shared VM fall on all of them
# alike. Before timing, both layers are stacked on the same runs and must record
# the same entries (tests/capture/foz_entries.py): a layer that recorded less
# would look cheaper than it is. Every timed layer run must leave its archive.
# usage: bash bench/capture_bench.sh [REPS]     (REPS rounds, default 7)
#   BENCH_FRAMES (default 3000) vkcube frames per run; BENCH_ONLY=vkcube or
#   storm runs one part; BENCH_RAW=DIR keeps every run's numbers there (one
#   file per program and configuration, one line per round, in round order).
# Prints medians (wall clock and user+sys CPU) and ratios; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-7}
frames=${BENCH_FRAMES:-3000}
threads_list=(1 2)
graphics=5000
compute=1000
pipelines=$((graphics + compute))

# trak's layer as users get it: a release build (build/ is debugoptimized, with
# asserts). Fossilize's oracle layer is a Release build too. The storm program
# is a test application, hence build-release with tests on; a build-release
# that another script set up with -Dtests=false is switched over (only
# trace_bench.sh, which builds every target, then builds the tests as well).
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release >/dev/null
storm=build-release/tests/capture/apps/capture_pipeline_storm
if ! ninja -C build-release -t targets all | grep -q "^${storm#build-release/}:"; then
  meson configure build-release -Dtests=true >/dev/null
fi
ninja -C build-release -j2 layers/capture/libVkLayer_trak_capture.so "${storm#build-release/}" >/dev/null
trak_layer=$PWD/build-release/layers/capture
fz_layer=$(cd ../shared/tools/fossilize/layer && pwd)

icd=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
# No driver-side cache: every run compiles the same as the first.
export MESA_SHADER_CACHE_DISABLE=true
unset VK_INSTANCE_LAYERS VK_ADD_LAYER_PATH VK_LAYER_PATH TRAK_CAPTURE_FOZ FOSSILIZE_DUMP_PATH FOSSILIZE
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/out"
only=${BENCH_ONLY:-}
vkcube=(xvfb-run -a -s "-screen 0 1280x1024x24 +extension GLX" vkcube)
storm_args=(--graphics "$graphics" --compute "$compute")

# The environment that turns each configuration on (none: no layer at all).
layer_env() {
  case $1 in
    none) ;;
    trak) echo "VK_ADD_LAYER_PATH=$trak_layer VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture TRAK_CAPTURE_FOZ=$work/out/trak" ;;
    fossilize) echo "VK_ADD_LAYER_PATH=$fz_layer VK_INSTANCE_LAYERS=VK_LAYER_fossilize FOSSILIZE_DUMP_PATH=$work/out/fz" ;;
    both) echo "VK_ADD_LAYER_PATH=$trak_layer:$fz_layer VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture:VK_LAYER_fossilize" \
      "TRAK_CAPTURE_FOZ=$work/out/trak FOSSILIZE_DUMP_PATH=$work/out/fz" ;;
  esac
}

# timed CONFIG KEY COMMAND...: runs COMMAND once under CONFIG, appends its wall
# seconds to $work/KEY.CONFIG.wall, user+sys to .cpu and the archive's size to
# .size. The archives are removed first: each process writes a new one.
timed() {
  local cfg=$1 key=$2 start end
  shift 2
  rm -f "$work"/out/*
  start=$(date +%s.%N)
  # shellcheck disable=SC2046  # layer_env's words are NAME=VALUE pairs without blanks
  if ! env $(layer_env "$cfg") /usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>"$work/err"; then
    cat "$work/err" >&2
    echo "failed under $cfg: $*" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc >>"$work/$key.$cfg.wall"
  awk '{print $1 + $2}' "$work/t" >>"$work/$key.$cfg.cpu"
  case $cfg in
    trak | fossilize)
      local f
      f=$(compgen -G "$work/out/*.foz") || { echo "$cfg wrote no archive: $*" >&2; exit 1; }
      stat -c %s "$f" >>"$work/$key.$cfg.size" ;;
  esac
}

# Sanity check: both layers stacked on one run of each program record the same entries.
for prog in vkcube storm; do
  rm -f "$work"/out/*
  if [ $prog = vkcube ]; then cmd=("${vkcube[@]}" --c 10); else cmd=("$storm" --threads 2 "${storm_args[@]}"); fi
  # shellcheck disable=SC2046
  env $(layer_env both) "${cmd[@]}" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  echo -n "same entries, both layers on one $prog run: "
  python3 tests/capture/foz_entries.py same "$work"/out/trak.*.foz -- "$work"/out/fz.*.foz 2>&1
done

# /proc/stat's cpu line before and after: the share of CPU steal over the whole run.
read -ra stat0 < <(grep '^cpu ' /proc/stat)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
configs=(none trak fossilize)

# 1. vkcube. A run of 1 frame is timed next to each run of FRAMES frames, so
# that start-up (Xvfb, instance and device, the first pipeline, the archive's
# creation and final flush) can be told apart from the frames: steady fps =
# (FRAMES - 1) / (median(FRAMES run) - median(1-frame run)). Whole-run fps
# (FRAMES / median) is printed too.
for ((r = 0; r < reps; r++)); do
  [ "$only" != storm ] || break
  for ((k = 0; k < 3; k++)); do
    cfg=${configs[(r + k) % 3]}
    timed "$cfg" cube1 "${vkcube[@]}" --c 1
    timed "$cfg" cube "${vkcube[@]}" --c "$frames"
  done
done

# 2. The pipeline storm, whole process: overhead per pipeline =
# (median(layer) - median(none)) / pipelines.
for ((r = 0; r < reps; r++)); do
  [ "$only" != vkcube ] || break
  for t in "${threads_list[@]}"; do
    for ((k = 0; k < 3; k++)); do
      cfg=${configs[(r + k) % 3]}
      timed "$cfg" "storm$t" "$storm" --threads "$t" "${storm_args[@]}"
    done
  done
done

read -ra stat1 < <(grep '^cpu ' /proc/stat)
if [ -n "${BENCH_RAW:-}" ]; then
  mkdir -p "$BENCH_RAW"
  cp "$work"/*.wall "$work"/*.cpu "$work"/*.size "$BENCH_RAW"/
fi
total=0
for i in 1 2 3 4 5 6 7 8; do total=$((total + stat1[i] - stat0[i])); done
steal=$(echo "100 * (${stat1[8]} - ${stat0[8]}) / $total" | bc -l)
# What the machine's other processes took meanwhile (another build on this
# shared VM, say): all busy CPU time less the timed commands' own (Xvfb included).
busy=$(echo "($total - (${stat1[4]} - ${stat0[4]}) - (${stat1[5]} - ${stat0[5]}) - (${stat1[8]} - ${stat0[8]})) / $(getconf CLK_TCK)" | bc -l)
ours=$(cat "$work"/*.cpu | awk '{s += $1} END {print s}')
elapsed=$(echo "$total / $(nproc) / $(getconf CLK_TCK)" | bc -l)

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
  "load $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"
printf 'during the runs (%.0f s): CPU steal %.1f %%; other processes busy %.2f cores on average\n' "$elapsed" "$steal" \
  "$(echo "($busy - $ours) / $elapsed" | bc -l)"
echo "lavapipe: $(vulkaninfo --summary 2>/dev/null | grep -m1 driverInfo | cut -d= -f2 | xargs)"
# Medians of each configuration, and the median of the per-round comparisons
# (a layer's run against the no-layer run of the same round, seconds apart),
# which drift between rounds disturbs less.
python3 - "$work" "$reps" "$frames" "$pipelines" "${threads_list[@]}" <<'EOF'
import os, statistics, sys
work, reps, frames, pipelines = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
threads = [t for t in sys.argv[5:] if os.path.exists(f'{work}/storm{t}.none.wall')]
cfgs, layers = ['none', 'trak', 'fossilize'], ['trak', 'fossilize']
med = statistics.median

def vals(key, cfg, kind='wall'):
    return [float(x) for x in open(f'{work}/{key}.{cfg}.{kind}')]

def size(key, cfg):
    return '' if cfg == 'none' else '/'.join(f'{int(x):,}' for x in sorted(set(vals(key, cfg, 'size'))))

summary = []
if os.path.exists(f'{work}/cube.none.wall'):
    print(f'\nvkcube, {frames} frames, median of {reps} (wall s; fps steady = frames after the first / (all - 1 frame))')
    print(f'{"layer":<10} {"1 frame":>8} {"all":>7} {"min-max":>13} {"CPU s":>6} {"fps whole":>10} {"fps steady":>11}'
          f' {"loss":>6} {"paired":>7}  archive B')
    steady = {c: [(frames - 1) / (a - o) for a, o in zip(vals('cube', c), vals('cube1', c))] for c in cfgs}
    fps = {c: (frames - 1) / (med(vals('cube', c)) - med(vals('cube1', c))) for c in cfgs}
    loss, paired = {}, {}
    for c in cfgs:
        w = vals('cube', c)
        loss[c] = 100 * (1 - fps[c] / fps['none'])
        paired[c] = 100 * (1 - med([x / n for x, n in zip(steady[c], steady['none'])]))
        print(f'{c:<10} {med(vals("cube1", c)):8.3f} {med(w):7.3f} {f"{min(w):.2f}-{max(w):.2f}":>13}'
              f' {med(vals("cube", c, "cpu")):6.2f} {frames / med(w):10.1f} {fps[c]:11.1f}'
              f' {loss[c]:5.1f}% {paired[c]:6.1f}%  {size("cube", c)}')
    for c in layers:
        summary.append(f'vkcube fps loss, {c}: {loss[c]:.1f} % of medians, {paired[c]:.1f} % paired by round'
                       + (f' (goal <= 3 %: {"met" if max(loss[c], paired[c]) <= 3 else "NOT met"})' if c == 'trak' else ''))

for t in threads:
    key = f'storm{t}'
    print(f'\ncapture_pipeline_storm --threads {t}, {pipelines} pipelines, median of {reps}'
          ' (overhead per pipeline in us: of medians / paired by round)')
    print(f'{"layer":<10} {"wall s":>7} {"min-max":>13} {"CPU s":>6} {"us wall":>15} {"us CPU":>15}  archive B')
    over = {}
    for c in cfgs:
        w, cpu = vals(key, c), vals(key, c, 'cpu')
        ow = 1e6 * (med(w) - med(vals(key, 'none'))) / pipelines
        pw = 1e6 * med([a - b for a, b in zip(w, vals(key, 'none'))]) / pipelines
        oc = 1e6 * (med(cpu) - med(vals(key, 'none', 'cpu'))) / pipelines
        pc = 1e6 * med([a - b for a, b in zip(cpu, vals(key, 'none', 'cpu'))]) / pipelines
        over[c] = (ow, pw, oc, pc)
        print(f'{c:<10} {med(w):7.3f} {f"{min(w):.3f}-{max(w):.3f}":>13} {med(cpu):6.2f}'
              f' {f"{ow:.1f} / {pw:.1f}":>15} {f"{oc:.1f} / {pc:.1f}":>15}  {size(key, c)}')
    tr, fz = over['trak'], over['fossilize']
    # The direct comparison: trak's run less Fossilize's of the same round.
    dw = 1e6 * med([a - b for a, b in zip(vals(key, 'trak'), vals(key, 'fossilize'))]) / pipelines
    dc = 1e6 * med([a - b for a, b in zip(vals(key, 'trak', 'cpu'), vals(key, 'fossilize', 'cpu'))]) / pipelines
    print(f'trak - fossilize, paired by round: {dw:.1f} us wall, {dc:.1f} us CPU per pipeline')
    summary.append(f'per pipeline, {t} thread(s): wall trak {tr[0]:.1f} us, fossilize {fz[0]:.1f} us'
                   f' (paired {tr[1]:.1f} / {fz[1]:.1f}); CPU {tr[2]:.1f} / {fz[2]:.1f} us (paired {tr[3]:.1f} / {fz[3]:.1f})'
                   f' (goal trak <= fossilize: {"met" if tr[0] <= fz[0] and tr[1] <= fz[1] else "NOT met"})')

print('\nsummary (goals from issue 17):')
for line in summary:
    print(' ', line)
EOF
