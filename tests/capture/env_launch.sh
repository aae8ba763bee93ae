#!/bin/sh
# Runs a launcher (trak-capture, trak-gpa) in one of the environments users
# have, named by TRAK_TEST_ENV:
#   wrapper            the command after "--" runs through harness.sh, which
#                      sets VK_LAYER_PATH as test harnesses do
#   validation-first   VK_INSTANCE_LAYERS lists Khronos' validation layer,
#                      and trak's is added after it
#   validation-last    VK_INSTANCE_LAYERS lists trak's layer, then validation
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
    case "$TRAK_TEST_ENV" in
      validation-first) export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation ;;
      *) export VK_INSTANCE_LAYERS=${LAYER_NAME:-VK_LAYER_TRAK_capture}:VK_LAYER_KHRONOS_validation ;;
    esac
    ;;
esac
exec "$tool" "$@"
