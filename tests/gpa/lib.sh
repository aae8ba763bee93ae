# Sourced by the trak-gpa profile tests: paths, a scratch folder
# (../apps/lib.sh), and the checks they share. Meson sets TOOLS (build/tools),
# APPS (tests/gpa/apps in the build) and SRC (this folder).
set -u
GPA=$TOOLS/gpa/trak-gpa WORK=$APPS/gpa_work
LAYER_DIR=$TOOLS/../layers/gpa LAYER_NAME=VK_LAYER_TRAK_gpa
. "$SRC/../apps/lib.sh"
GPA=$(through_env "$GPA")
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
