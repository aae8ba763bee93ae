#!/usr/bin/env bash
# The call-stream capture benchmark (issue 19): what trak-capture --trace
# costs an application, next to gfxreconstruct's layer
# (VK_LAYER_LUNARG_gfxreconstruct, its default LZ4 compression and page-guard
# memory tracking), and how large the two captures of the same frames are.
# On lavapipe, under Xvfb:
#   vkcube        BENCH_FRAMES (default 1500) frames, fps from the wall clock
#   glxgears      on zink, 11 s, fps as glxgears reports its second 5 s
#   glmark2       on zink, five scenes of 100 frames, fps from the wall clock
# Goals: <= 3 % fps lost on vkcube, <= 10 % on the zink programs; files <=
# 1/5 of gfxreconstruct's per frame. "keep" is a trimmed capture before its
# range (TRAK_CAPTURE_TRACE_FRAMES past the run's end): what keeping the
# state costs, with nothing written (issue 28); "zstd" is trak with
# --codec zstd (at BENCH_ZSTD_LEVEL, default 3). The configurations (none,
# gfxr, trak, keep, zstd) alternate round by round and the first rotates, so
# that drift on a shared VM falls on all of them alike.
# usage: bash bench/capture_trace_bench.sh [REPS]     (default 5 rounds)
#   BENCH_ONLY=vkcube|glxgears|glmark2 runs one workload; BENCH_RAW=DIR keeps
#   every run's numbers (one line per round).
# Prints medians and ratios (the loss also paired round by round); asserts
# nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
frames=${BENCH_FRAMES:-1500}
command -v gfxrecon-info >/dev/null || { echo "needs gfxreconstruct (apt-get install gfxreconstruct)" >&2; exit 1; }
# trak as users get it: a release build (BENCH_BUILD=DIR: another one).
build=${BENCH_BUILD:-build-release}
[ -f "$build/build.ninja" ] || meson setup "$build" --buildtype=release >/dev/null
ninja -C "$build" -j2 layers/capture/libVkLayer_trak_capture.so tools/stat/trak-stat >/dev/null
trak_layer=$(cd "$build" && pwd)/layers/capture
stat=$(cd "$build" && pwd)/tools/stat/trak-stat

icd=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd MESA_SHADER_CACHE_DISABLE=true
unset VK_INSTANCE_LAYERS VK_ADD_LAYER_PATH TRAK_CAPTURE_TRACE TRAK_CAPTURE_FOZ GFXRECON_CAPTURE_FILE
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
raw=${BENCH_RAW:-$work/raw}
mkdir -p "$raw"
xrun=(xvfb-run -a -s "-screen 0 1280x1024x24 +extension GLX")
zink=(env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1)
glmark_scenes=(-b build:nframes=100 -b texture:nframes=100 -b shading:nframes=100 -b bump:nframes=100
               -b effect2d:nframes=100)
glmark_frames=500

layer_env() {  # configuration, capture file
  case $1 in
    none) ;;
    trak) echo "VK_ADD_LAYER_PATH=$trak_layer VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture TRAK_CAPTURE_TRACE=$2" ;;
    zstd) echo "VK_ADD_LAYER_PATH=$trak_layer VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture TRAK_CAPTURE_TRACE=$2" \
      "TRAK_CAPTURE_TRACE_CODEC=zstd TRAK_CAPTURE_TRACE_LEVEL=${BENCH_ZSTD_LEVEL:-3}" ;;
    keep) echo "VK_ADD_LAYER_PATH=$trak_layer VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture TRAK_CAPTURE_TRACE=$2" \
      "TRAK_CAPTURE_TRACE_FRAMES=999999999-999999999" ;;
    gfxr) echo "VK_INSTANCE_LAYERS=VK_LAYER_LUNARG_gfxreconstruct GFXRECON_CAPTURE_FILE=$2" \
      "GFXRECON_CAPTURE_FILE_TIMESTAMP=false" ;;
  esac
}

now() { date +%s.%N; }
# One run: prints "fps frames bytes" (bytes 0 without a capture).
run() {
  local workload=$1 config=$2 file=$work/cap.$2 t0 t1 fps out n bytes
  rm -f "$file"
  case $workload in
    vkcube)
      t0=$(now)
      env $(layer_env "$config" "$file") "${xrun[@]}" vkcube --c "$frames" >/dev/null 2>&1
      t1=$(now)
      n=$frames
      fps=$(echo "$n / ($t1 - $t0)" | bc -l) ;;
    glxgears)
      out=$(env $(layer_env "$config" "$file") timeout 11 "${xrun[@]}" "${zink[@]}" glxgears 2>&1 || true)
      fps=$(echo "$out" | awk '/FPS/ {n++; if (n == 2) print $(NF-1)}')
      n=0 ;;
    glmark2)
      t0=$(now)
      env $(layer_env "$config" "$file") "${xrun[@]}" "${zink[@]}" glmark2 -s 500x400 "${glmark_scenes[@]}" >/dev/null 2>&1
      t1=$(now)
      n=$glmark_frames
      fps=$(echo "$n / ($t1 - $t0)" | bc -l) ;;
  esac
  bytes=0
  if [ "$config" != none ] && [ "$config" != keep ]; then
    [ -s "$file" ] || { echo "$workload/$config: no capture written" >&2; exit 1; }
    bytes=$(stat -c %s "$file")
    # Frames in the capture (glxgears is timed, not counted).
    if [ "$config" = trak ] || [ "$config" = zstd ]; then n=$("$stat" --json "$file" | jq .frames.count)
    else n=$(gfxrecon-info "$file" 2>/dev/null | awk -F: '/Total frames/ {gsub(/ /, "", $2); print $2}'); fi
  fi
  printf '%.1f %s %s\n' "$fps" "${n:-0}" "$bytes"
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

configs=(none gfxr trak keep zstd)
workloads=(vkcube glxgears glmark2)
[ -n "${BENCH_ONLY:-}" ] && workloads=("$BENCH_ONLY")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "lavapipe: $(dpkg-query -W -f '${Version}' mesa-vulkan-drivers), gfxreconstruct $(dpkg-query -W -f '${Version}' gfxreconstruct)"
for w in "${workloads[@]}"; do
  for r in $(seq 1 "$reps"); do
    for k in "${!configs[@]}"; do
      c=${configs[$(((r + k) % ${#configs[@]}))]}
      run "$w" "$c" >> "$raw/$w.$c"
    done
  done
  # "paired": the median over rounds of each round's loss against that
  # round's own `none` run, minutes apart at most; the VM's speed drifts more
  # than that between rounds.
  printf '\n%s (%s rounds)\n%-6s %10s %8s %8s %14s %14s\n' "$w" "$reps" config fps loss paired "capture bytes" \
    "bytes/frame"
  base=$(cut -d' ' -f1 "$raw/$w.none" | median)
  for c in "${configs[@]}"; do
    fps=$(cut -d' ' -f1 "$raw/$w.$c" | median)
    bytes=$(cut -d' ' -f3 "$raw/$w.$c" | median)
    per=$(awk '$2 > 0 {print $3 / $2}' "$raw/$w.$c" | median)
    loss=$(echo "100 * (1 - $fps / $base)" | bc -l)
    paired=$(paste -d' ' <(cut -d' ' -f1 "$raw/$w.$c") <(cut -d' ' -f1 "$raw/$w.none") |
      awk '$2 > 0 {print 100 * (1 - $1 / $2)}' | median)
    printf '%-6s %10.1f %7.1f%% %7.1f%% %14.0f %14.0f\n' "$c" "$fps" "$loss" "${paired:-0}" "$bytes" "${per:-0}"
    eval "per_$c=${per:-0}"
  done
  echo "size per frame, trak / gfxr: $(echo "$per_trak / $per_gfxr" | bc -l | cut -c1-5)" \
    "(zstd: $(echo "$per_zstd / $per_gfxr" | bc -l | cut -c1-5))"
done
