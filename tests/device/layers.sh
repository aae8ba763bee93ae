#!/bin/sh
# The capture and GPA layers with a real driver (run on the NVIDIA machine
# through the device tool; see tests/device/unit_vk.sh for the set-up).
# usage: layers.sh CARRY   (CARRY mirrors a release build: tools/, layers/,
# tests/*/apps/, and fossilize/ with Fossilize's layer and bin/)
set -u
C=$(cd "$1" && pwd)
out=${OUT:-/tmp}/layers
mkdir -p "$out"
status=0
step() { echo "== $*"; }
check() { if "$@"; then echo "ok: $*"; else echo "FAILED ($?): $*"; status=1; fi; }
export VK_ADD_LAYER_PATH=$C/layers/gpa
step "gpa client through VK_LAYER_TRAK_gpa"
check env VK_INSTANCE_LAYERS=VK_LAYER_TRAK_gpa "$C/tests/gpa/apps/gpa_client" --api-version 1.3
check env VK_INSTANCE_LAYERS=VK_LAYER_TRAK_gpa "$C/tests/gpa/apps/gpa_client" --api-version 1.1 --quiet
unset VK_ADD_LAYER_PATH
step "trak-gpa info"
check "$C/tools/gpa/trak-gpa" info
"$C/tools/gpa/trak-gpa" info --json > "$out/gpa-info.json"
step "trak-gpa profile of the client"
check "$C/tools/gpa/trak-gpa" profile -o "$out/client-profile.json" -- "$C/tests/gpa/apps/gpa_client" --quiet
step "trak-capture of the pipeline storm"
check "$C/tools/capture/trak-capture" --foz "$out/storm" -o "$out/storm-report.txt" -- \
  "$C/tests/capture/apps/capture_pipeline_storm" --threads 8 --graphics 400 --compute 100 --gpl --dynamic-rendering
cat "$out/storm-report.txt"
check "$C/tools/replay/trak-replay" "$out"/storm.*.foz
step "ray-tracing pipelines captured from trak-replay replaying them"
check "$C/tools/capture/trak-capture" --foz "$out/rt" -o "$out/rt-report.txt" -- "$C/tools/replay/trak-replay" --jobs 1 "$C/raytracing.foz"
"$C/tools/stat/trak-stat" "$out"/rt.*.foz
if [ -d "$C/fossilize" ]; then
  step "Fossilize's layer stacked under trak's"
  rm -f "$out"/trak-s.* "$out"/fz-s.*
  env VK_ADD_LAYER_PATH="$C/layers/capture:$C/fossilize/layer" VK_INSTANCE_LAYERS=VK_LAYER_TRAK_capture:VK_LAYER_fossilize \
    TRAK_CAPTURE_FOZ="$out/trak-s" FOSSILIZE_DUMP_PATH="$out/fz-s" \
    "$C/tests/capture/apps/capture_pipeline_storm" --threads 4 --graphics 200 --compute 50 --gpl --inline-modules
  check "$C/fossilize/bin/fossilize-list" "$out"/trak-s.*.foz
  check python3 tests/capture/foz_entries.py same "$out"/trak-s.*.foz -- "$out"/fz-s.*.foz
  ls -la "$out"/trak-s.* "$out"/fz-s.*
fi
exit $status
