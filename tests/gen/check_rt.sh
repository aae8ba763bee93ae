#!/bin/sh
# usage: check_rt.sh FOZ_RT_GEN DIR
# Assembles DIR/*.spvasm and regenerates raytracing.foz: it must be the very
# file committed in DIR (so the test data is what its sources say).
gen=$1 dir=$2
as=$(command -v spirv-as) || { echo "skipped: spirv-as (spirv-tools) is missing, the oracle that assembles the shaders"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
for s in raygen miss closest_hit; do
  "$as" --target-env spv1.4 "$dir/$s.spvasm" -o "$tmp/$s.spv" || exit 1
done
"$gen" "$tmp/raygen.spv" "$tmp/miss.spv" "$tmp/closest_hit.spv" "$tmp/raytracing.foz" || exit 1
cmp "$tmp/raytracing.foz" "$dir/raytracing.foz"
