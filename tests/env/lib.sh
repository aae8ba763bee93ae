# Sourced by the tests of the layers' launchers (capture, gpa) after they set
# `work` (their scratch folder, the current directory), LAYER_DIR (the
# folder of their layer's manifest), LAYER_NAME, and fail/skip.
#
# The environments users run trak in (TRAK_TEST_ENV; meson runs every
# capture and profile test once in each): the Vulkan SDK's set-up exports
# VK_LAYER_PATH ("sdk"), a harness script extends it for the command
# ("wrapper"), Khronos' validation layer is stacked nearer the application
# than trak's or nearer the driver ("validation-first", "validation-last").
# Launchers run through launch.sh (through_env), which sets up the last
# three; with validation, a test fails on any error trak's layer causes.
case "${TRAK_TEST_ENV:-}" in
  "") ;;
  sdk) export VK_LAYER_PATH=/usr/share/vulkan/explicit_layer.d ;;
  wrapper) ;;
  validation-*)
    [ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] ||
      skip "needs Khronos' validation layer (package vulkan-validationlayers)"
    export VALIDATION_LOGS=$work/validation
    mkdir "$VALIDATION_LOGS"
    ;;
  *) fail "unknown TRAK_TEST_ENV $TRAK_TEST_ENV" ;;
esac
ENV_DIR=$(cd "$(dirname "$SRC")/env" && pwd)
# A display number to start xvfb-run -a's search from. From the pid alone,
# tests running side by side (and a test's several servers) met on one
# number, and one server vanished under the other's windows: a random
# start in a wide range makes that rare.
display_from() { echo $((100 + $(od -An -N2 -tu2 /dev/urandom) % 3000)); }
# Runs a command under a virtual X server of its own.
# glmark2 on zink over lavapipe (Mesa 22.3) dies now and then after its last
# frame, with or without trak (5 runs in 20 two side by side): a present's
# X_PutImage reaches the server after glmark2 destroyed its window, and
# Xlib's default error handler exits 1. Such a run is undone (what it made in
# the scratch folder, its validation logs with it) and run again, at most
# twice; any other failure stands.
xrun() {
  xtries=0
  while :; do
    find "$work" -mindepth 1 | sort > "$work/.xrun.before"
    rm -f "$work/.xrun.rc"
    # The command's status as its own shell saw it: xvfb-run keeps a SIGUSR1
    # trap, and the X server signals it again each time it resets (its last
    # client gone). Landing in xvfb-run's wait for the command or in its
    # cleanup, that signal made it exit 2 or 5 ("problem while cleaning up
    # temporary directory") after a command that exited 1, in 8 runs of 20
    # of a launcher test on the development VM.
    xvfb-run -a -n "$(display_from)" -s "-screen 0 1280x1024x24 +extension GLX" \
      sh -c '"$@"; rc=$?; echo "$rc" > "$0"; exit "$rc"' "$work/.xrun.rc" "$@" \
      > "$work/.xrun.out" 2> "$work/.xrun.err"
    xrc=$?
    [ -s "$work/.xrun.rc" ] && xrc=$(cat "$work/.xrun.rc")
    xtries=$((xtries + 1))
    if [ "$xrc" = 0 ] || [ "$xtries" = 3 ] || ! grep -q "BadDrawable" "$work/.xrun.err" ||
      ! grep -q "X_PutImage" "$work/.xrun.err"; then
      cat "$work/.xrun.out"
      cat "$work/.xrun.err" >&2
      rm -f "$work/.xrun.before" "$work/.xrun.out" "$work/.xrun.err" "$work/.xrun.rc"
      return "$xrc"
    fi
    find "$work" -mindepth 1 | sort | comm -13 "$work/.xrun.before" - | grep -v '/\.xrun\.' | xargs -r rm -rf
  done
}
# The launcher TOOL as the environment runs it: a script in `work` that runs
# it through launch.sh, or TOOL itself where the environment is the plain one.
through_env() {
  [ -n "${TRAK_TEST_ENV:-}" ] || { echo "$1"; return; }
  wrapped=$work/$(basename "$1")
  printf '#!/bin/sh\nLAYER_DIR="%s" exec "%s" "%s" "$@"\n' "$LAYER_DIR" "$ENV_DIR/launch.sh" "$1" > "$wrapped"
  chmod +x "$wrapped"
  echo "$wrapped"
}
# Errors per VUID in the logs of a folder ("COUNT VUID" lines).
vuids() { cat "$1"/*/log 2>/dev/null | grep "Validation Error" | grep -o "\[ [A-Za-z0-9_-]* \]" | sort | uniq -c; }
# A test fails on errors trak's layer causes: more of a VUID than the
# application makes alone (app_errors), of any VUID.
validation_errors() {
  [ -d "${VALIDATION_LOGS:-/nonexistent}" ] || return 0
  vuids "$VALIDATION_LOGS" > "$work/vuids.trak"
  vuids "$work/validation-app" > "$work/vuids.app"
  extra=$(awk 'NR == FNR { app[$3] = $1; next } $1 > app[$3] + 0' "$work/vuids.app" "$work/vuids.trak")
  [ -z "$extra" ] && return 0
  echo "FAIL: the validation layer reported errors the application does not make alone:" >&2
  echo "$extra" >&2
  cat "$VALIDATION_LOGS"/*/log | grep "Validation Error" | head -5 >&2
  return 1
}
# With validation stacked: runs COMMAND under validation alone, without
# trak's layer, to learn the errors the application makes by itself (zink
# on lavapipe has some). The same command, frame counts and all, as the run
# with trak's layer.
app_errors() {
  [ -d "${VALIDATION_LOGS:-/nonexistent}" ] || return 0
  mkdir -p "$work/validation-app"
  settings=$(VALIDATION_LOGS=$work/validation-app validation_settings)
  VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_SETTINGS_PATH=$settings "$@" > /dev/null 2>&1
}
on_exit() {
  status=$?
  [ "$status" = 0 ] && ! validation_errors && status=1
  cd / && rm -rf "$work"
  exit "$status"
}
trap on_exit EXIT

# Runs a command with trak's layer enabled by the environment alone, as the
# README tells users to without the launcher: the folder goes into
# VK_LAYER_PATH where that is set (the loader then ignores
# VK_ADD_LAYER_PATH), else into VK_ADD_LAYER_PATH. LAYERS (default
# LAYER_NAME alone; empty for none) and LAYER_DIRS (default LAYER_DIR) say
# what to enable, from where; validation is stacked as TRAK_TEST_ENV says.
with_layer() {
  layers=${LAYERS-$LAYER_NAME} dirs=${LAYER_DIRS:-$LAYER_DIR}
  # The loader stacks explicit layers in the order it finds their folders.
  case "${TRAK_TEST_ENV:-}" in
    validation-first) dirs=/usr/share/vulkan/explicit_layer.d:$dirs ;;
    validation-last) dirs=$dirs:/usr/share/vulkan/explicit_layer.d ;;
  esac
  settings=
  case "${TRAK_TEST_ENV:-}" in
    validation-*)
      layers=${layers:+$layers:}VK_LAYER_KHRONOS_validation
      settings=$(validation_settings)
      ;;
  esac
  # Assignments before the command, not env(1): it may be a function (xrun).
  if [ -n "${VK_LAYER_PATH:-}" ]; then
    VK_LAYER_PATH=$dirs:$VK_LAYER_PATH VK_INSTANCE_LAYERS=$layers VK_LAYER_SETTINGS_PATH=$settings "$@"
  else
    VK_ADD_LAYER_PATH=$dirs VK_INSTANCE_LAYERS=$layers VK_LAYER_SETTINGS_PATH=$settings "$@"
  fi
}
# A settings file for the validation layer that logs its errors into a
# folder of VALIDATION_LOGS of their own (one log per process tree: the
# layer truncates its log when it starts).
validation_settings() {
  dir=$(mktemp -d "$VALIDATION_LOGS/XXXXXX")
  printf '%s\n' "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG" \
    "khronos_validation.report_flags = error" "khronos_validation.log_filename = $dir/log" > "$dir/vk_layer_settings.txt"
  echo "$dir/vk_layer_settings.txt"
}

