#!/bin/sh
# usage: unit_vk.sh UNIT_VK TRAK_REPLAY
# Runs the Vulkan unit tests (unit-vk) on whatever device the loader finds,
# one process per test file as tests/meson.build does (NVIDIA's driver
# refuses a process its 31st instance). For a machine without meson or
# Debian's packages, such as the NVIDIA H100 one: carry a release build's
# unit-vk and trak-replay (with libsnappy and libbrotli beside them, in
# LD_LIBRARY_PATH), bring the Vulkan loader (Debian's libvulkan1), and name
# the driver, e.g.
#   VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
#     sh tests/device/unit_vk.sh .devcarry/unit-vk .devcarry/trak-replay
# unit-vk reads tests/data at the path it was built from: run it from a
# checkout at that path (a link will do).
unit=$1 replay=$2
[ -x "$unit" ] && [ -x "$replay" ] || { echo "usage: unit_vk.sh UNIT_VK TRAK_REPLAY" >&2; exit 2; }
export TRAK_REPLAY="$replay"
status=0
for f in replay/foz/replay vk/device vk/device_alloc replay/vma/replay; do
  echo "== $f"
  "$unit" --source-file="*/unit/${f}_test.cpp" || status=1
done
exit $status
