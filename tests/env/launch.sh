#!/bin/sh
# Runs a launcher (trak-capture, trak-gpa) in one of the environments users
# have, named by TRAK_TEST_ENV:
#   wrapper            the command after "--" runs through harness.sh, which
#                      sets VK_LAYER_PATH as test harnesses do
#   validation-first   Khronos' validation layer nearer the application than
#                      trak's: its folder before trak's in VK_LAYER_PATH (the
#                      loader stacks explicit layers in the order it finds
#                      them, whatever order VK_INSTANCE_LAYERS names them in)
#   validation-last    validation nearer the driver: the launcher puts
#                      trak's folder (LAYER_DIR) first
# With validation, what it reports goes to a log of this run's own
# (VALIDATION_LOGS/<pid>/log), which lib.sh reads when the test ends.
# Usage: env_launch.sh TOOL ARGS...
tool=$1
shift
case "${TRAK_TEST_ENV:-}" in
  wrapper)
    n=$#
    i=0
    inserted=
    for a; do
      i=$((i + 1))
      set -- "$@" "$a"
      if [ -z "$inserted" ] && [ "$a" = "--" ]; then
        set -- "$@" "$(dirname "$0")/harness.sh"
        inserted=1
      fi
    done
    shift "$n"
    ;;
  validation-*)
    dir=$(mktemp -d "$VALIDATION_LOGS/XXXXXX")
    {
      echo "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG"
      echo "khronos_validation.report_flags = error"
      echo "khronos_validation.log_filename = $dir/log"
    } > "$dir/vk_layer_settings.txt"
    export VK_LAYER_SETTINGS_PATH=$dir/vk_layer_settings.txt
    export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
    if [ "$TRAK_TEST_ENV" = validation-first ]; then
      export VK_LAYER_PATH=/usr/share/vulkan/explicit_layer.d:$LAYER_DIR
    fi
    ;;
esac
exec "$tool" "$@"
