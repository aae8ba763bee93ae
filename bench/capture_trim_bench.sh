#!/usr/bin/env bash
# Trimmed captures' sizes (issue 28): trak-capture --frames against
# gfxreconstruct's GFXRECON_CAPTURE_FRAMES of the same frames of the same
# programs on lavapipe, and against the whole captures:
#   vkcube    300 frames, frames 100-102 (issue 28: gfxreconstruct's is 74,856 bytes)
#   glmark2   on zink, build and texture scenes of 30 frames, frames 40-42
#             (the texture and the model uploaded long before)
# trak's file in its default container (snappy) and with --codec zstd; then
# the whole-run sizes of glmark2's 17 scenes of 10 frames each on zink
# (issue 28's upload-dominated workload: goal 1/2 of gfxreconstruct's). Sizes
# are one run each (they vary by a few hundred bytes); the fps a trimmed
# capture costs before its range is capture_trace_bench.sh's "keep" row.
# usage: bash bench/capture_trim_bench.sh    (BENCH_BUILD=DIR: another build
# than build-release; sizes do not depend on the build type)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gfxrecon-info >/dev/null || { echo "needs gfxreconstruct (apt-get install gfxreconstruct)" >&2; exit 1; }
build=${BENCH_BUILD:-build-release}
[ -f "$build/build.ninja" ] || meson setup "$build" --buildtype=release >/dev/null
ninja -C "$build" -j2 layers/capture/libVkLayer_trak_capture.so >/dev/null
trak_layer=$PWD/$build/layers/capture
icd=/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd MESA_SHADER_CACHE_DISABLE=true
unset VK_INSTANCE_LAYERS VK_ADD_LAYER_PATH TRAK_CAPTURE_TRACE TRAK_CAPTURE_FOZ GFXRECON_CAPTURE_FILE
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
xrun=(xvfb-run -a -s "-screen 0 1280x1024x24 +extension GLX")
zink=(env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1)

# capture NAME FRAMES(or "") CODEC(or "") -- COMMAND: prints the file's bytes.
# (CODEC may be zstd:LEVEL.)
trak() {
  local name=$1 frames=$2 codec=${3%%:*} level=
  [ "$3" != "${3#*:}" ] && level=${3#*:}
  shift 4
  env VK_ADD_LAYER_PATH="$trak_layer" VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture TRAK_CAPTURE_TRACE="$work/$name" \
    ${frames:+TRAK_CAPTURE_TRACE_FRAMES=$frames} ${codec:+TRAK_CAPTURE_TRACE_CODEC=$codec} \
    ${level:+TRAK_CAPTURE_TRACE_LEVEL=$level} \
    "${xrun[@]}" "$@" >/dev/null 2>&1 || true
  stat -c %s "$work/$name"
}
gfxr() {
  local name=$1 frames=$2
  shift 3
  rm -f "$work/$name"*
  env VK_INSTANCE_LAYERS=VK_LAYER_LUNARG_gfxreconstruct GFXRECON_CAPTURE_FILE="$work/$name.gfxr" \
    GFXRECON_CAPTURE_FILE_TIMESTAMP=false ${frames:+GFXRECON_CAPTURE_FRAMES=$frames} \
    "${xrun[@]}" "$@" >/dev/null 2>&1 || true
  stat -c %s "$work/$name"*.gfxr | head -n 1
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "lavapipe: $(dpkg-query -W -f '${Version}' mesa-vulkan-drivers), gfxreconstruct $(dpkg-query -W -f '${Version}' gfxreconstruct)"
report() {  # workload, range, then the five sizes
  printf '\n%s, frames %s\n' "$1" "$2"
  printf '  %-34s %12s\n' "trak --frames (snappy)" "$3" "trak --frames --codec zstd" "$4" \
    "gfxreconstruct, the same frames" "$5" "trak, the whole run (snappy)" "$6" "gfxreconstruct, the whole run" "$7"
  echo "  trak / gfxreconstruct, trimmed: $(echo "$3 / $5" | bc -l | cut -c1-5) (zstd $(echo "$4 / $5" | bc -l | cut -c1-5))"
  echo "  trak trimmed / trak whole: $(echo "$3 / $6" | bc -l | cut -c1-5)"
}
cube=(vkcube --c 300)
report vkcube 100-102 "$(trak c1 100-102 '' -- "${cube[@]}")" "$(trak c2 100-102 zstd -- "${cube[@]}")" \
  "$(gfxr c3 100-102 -- "${cube[@]}")" "$(trak c4 '' '' -- "${cube[@]}")" "$(gfxr c5 '' -- "${cube[@]}")"
gl=("${zink[@]}" glmark2 -s 320x240 -b build:nframes=30 -b texture:nframes=30)
report "glmark2 on zink" 40-42 "$(trak g1 40-42 '' -- "${gl[@]}")" "$(trak g2 40-42 zstd -- "${gl[@]}")" \
  "$(gfxr g3 40-42 -- "${gl[@]}")" "$(trak g4 '' '' -- "${gl[@]}")" "$(gfxr g5 '' -- "${gl[@]}")"
scenes=()
for s in build texture shading bump effect2d pulsar desktop buffer ideas jellyfish terrain shadow refract conditionals \
  function loop clear; do scenes+=(-b "$s:nframes=10"); done
all=("${zink[@]}" glmark2 -s 320x240 "${scenes[@]}")
g=$(gfxr a1 '' -- "${all[@]}")
printf '\nglmark2 on zink, 17 scenes of 10 frames, the whole run\n  %-34s %12s\n' "gfxreconstruct (LZ4)" "$g"
for codec in '' zstd zstd:5; do
  t=$(trak "a-${codec/:/-}" '' "$codec" -- "${all[@]}")
  printf '  %-34s %12s  (%s of gfxreconstruct'"'"'s)\n' "trak ${codec:-snappy}" "$t" "$(echo "$t / $g" | bc -l | cut -c1-5)"
done
