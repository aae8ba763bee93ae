# Sourced by the trak-gpa profile tests: paths, a scratch folder, and the
# checks they share. Meson sets TOOLS (build/tools) and APPS (tests/gpa/apps
# in the build).
set -u
GPA=$TOOLS/gpa/trak-gpa WORK=$APPS/gpa_work
LAYER_DIR=$TOOLS/../layers/gpa LAYER_NAME=VK_LAYER_TRAK_gpa
work=$(mktemp -d) || exit 99
cd "$work" || exit 99

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*" >&2; exit 77; }

# The environment users run it in (TRAK_TEST_ENV): tests/env/lib.sh.
. "$SRC/../env/lib.sh"
GPA=$(through_env "$GPA")
need_xvfb() {
  command -v xvfb-run >/dev/null || skip "needs xvfb-run (package xvfb) to give $1 a display"
  command -v "$1" >/dev/null || skip "needs $1 (package $2)"
}
# trak-gpa profile ARGS...: its status in $rc, stdout in NAME.out, stderr in NAME.err.
profile() {
  name=$1; shift
  "$GPA" profile "$@" > "$name.out" 2> "$name.err"; rc=$?
}
# jq FILTER on FILE must print WANT.
expect() {
  got=$(jq -c "$2" "$1") || fail "$1 is not JSON"
  [ "$got" = "$3" ] || fail "$1: $2 is $got, expected $3"
}
