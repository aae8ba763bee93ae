#!/usr/bin/env bash
# Replay of Vulkan captures (issue 20): trak-replay next to the live
# application and to gfxreconstruct's gfxrecon-replay on the same frames, on
# lavapipe. Each workload is captured once by each tool (trak-capture
# --trace, gfxreconstruct's layer), then per round: the application itself
# (under Xvfb), trak-replay (offscreen), gfxrecon-replay (under Xvfb: its
# headless mode needs VK_EXT_headless_surface, which this loader lacks).
# Wall clock of whole runs, start-up included, as a user waits for them.
#   vkcube     BENCH_FRAMES (default 1000) frames
#   glmark2    on zink, five scenes of 100 frames
# Goal: trak-replay at least as fast as the application.
# usage: bash bench/replay_trace_bench.sh [REPS]    (default 5 rounds)
#   BENCH_ONLY=vkcube|glmark2 runs one workload.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
frames=${BENCH_FRAMES:-1000}
command -v gfxrecon-replay >/dev/null || { echo "needs gfxreconstruct (apt-get install gfxreconstruct)" >&2; exit 1; }
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release >/dev/null
ninja -C build-release -j2 layers/capture/libVkLayer_trak_capture.so tools/capture/trak-capture tools/replay/trak-replay >/dev/null
capture=$PWD/build-release/tools/capture/trak-capture
replay=$PWD/build-release/tools/replay/trak-replay
icd=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd MESA_SHADER_CACHE_DISABLE=true
unset VK_INSTANCE_LAYERS VK_ADD_LAYER_PATH TRAK_CAPTURE_TRACE GFXRECON_CAPTURE_FILE
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
xrun=(xvfb-run -a -s "-screen 0 1280x1024x24 +extension GLX")
zink=(env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1)
glmark=(glmark2 -s 500x400 -b build:nframes=100 -b texture:nframes=100 -b shading:nframes=100 -b bump:nframes=100
        -b effect2d:nframes=100)

app() {
  case $1 in
    vkcube) "${xrun[@]}" vkcube --c "$frames" ;;
    glmark2) "${xrun[@]}" "${zink[@]}" "${glmark[@]}" ;;
  esac
}
count() { case $1 in vkcube) echo "$frames" ;; glmark2) echo 500 ;; esac; }
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "lavapipe: $(dpkg-query -W -f '${Version}' mesa-vulkan-drivers), gfxreconstruct $(dpkg-query -W -f '${Version}' gfxreconstruct)"
workloads=(vkcube glmark2)
[ -n "${BENCH_ONLY:-}" ] && workloads=("$BENCH_ONLY")
for w in "${workloads[@]}"; do
  "$capture" --trace "$work/$w.trace" -- bash -c "$(declare -f app); xrun=(${xrun[*]@Q}); zink=(${zink[*]@Q}); glmark=(${glmark[*]@Q}); frames=$frames; app $w" >/dev/null 2>&1
  env VK_INSTANCE_LAYERS=VK_LAYER_LUNARG_gfxreconstruct GFXRECON_CAPTURE_FILE="$work/$w.gfxr" \
    GFXRECON_CAPTURE_FILE_TIMESTAMP=false bash -c "$(declare -f app); xrun=(${xrun[*]@Q}); zink=(${zink[*]@Q}); glmark=(${glmark[*]@Q}); frames=$frames; app $w" >/dev/null 2>&1
  "$replay" "$work/$w.trace" >/dev/null || { echo "trak-replay cannot replay $w" >&2; exit 1; }
  : >"$work/$w.app"; : >"$work/$w.trak"; : >"$work/$w.gfxr.t"
  for r in $(seq 1 "$reps"); do
    for k in 0 1 2; do
      case $(((r + k) % 3)) in
        0) seconds app "$w" >>"$work/$w.app" ;;
        1) seconds "$replay" "$work/$w.trace" >>"$work/$w.trak" ;;
        2) seconds "${xrun[@]}" gfxrecon-replay "$work/$w.gfxr" >>"$work/$w.gfxr.t" ;;
      esac
    done
  done
  n=$(count "$w")
  a=$(median <"$work/$w.app"); t=$(median <"$work/$w.trak"); g=$(median <"$work/$w.gfxr.t")
  printf '\n%s: %s frames, %s rounds (median wall clock, start-up included)\n' "$w" "$n" "$reps"
  printf '%-16s %8.3f s %8.1f fps\n' application "$a" "$(echo "$n / $a" | bc -l)" trak-replay "$t" "$(echo "$n / $t" | bc -l)" \
    gfxrecon-replay "$g" "$(echo "$n / $g" | bc -l)"
  echo "trak-replay / application: $(echo "$a / $t" | bc -l | cut -c1-5)x the fps; trak-replay / gfxrecon-replay: $(echo "$g / $t" | bc -l | cut -c1-5)x"
done
