#!/bin/sh
# Assembles the test applications' shaders/*.spvasm into the shaders/*.spv
# that the build embeds (embed_spirv.py). The .spv files are committed so that
# building needs no SPIR-V tools; run this after editing a shader (needs
# spirv-as and spirv-val):
#   sh tests/apps/gen_shaders.sh
set -eu
here=$(cd "$(dirname "$0")/shaders" && pwd)

# SPIR-V 1.0 so that any Vulkan 1.0 driver takes them; validated against the
# rules of the Vulkan version their programs run under.
for prefix_env in storm:vulkan1.3 gpa:vulkan1.1; do
  prefix=${prefix_env%%:*} env=${prefix_env#*:}
  for stage in vert frag comp; do
    spirv-as --target-env vulkan1.0 "$here/$prefix.$stage.spvasm" -o "$here/$prefix.$stage.spv"
    spirv-val --target-env "$env" "$here/$prefix.$stage.spv"
  done
done
