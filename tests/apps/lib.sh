# Sourced by tests/capture/lib.sh and tests/gpa/lib.sh, which run programs
# (these test applications among them) under a trak layer, once they set
# SRC (their folder), LAYER_DIR and LAYER_NAME: a scratch folder as the
# current directory, fail and skip, the environment users run trak in
# (TRAK_TEST_ENV, tests/env/lib.sh) and a display for the programs that want
# one.
work=$(mktemp -d) || exit 99
cd "$work" || exit 99

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*" >&2; exit 77; }
# A count of frames or submits no other test gives its program (100000000
# plus this test's pid), so that pgrep -f finds this test's program only: the
# same test in the other environments runs side by side.
own_count() { echo $((100000000 + $$)); }

. "$SRC/../env/lib.sh"
need_xvfb() {
  command -v xvfb-run >/dev/null || skip "needs xvfb-run (package xvfb) to give $1 a display"
  command -v "$1" >/dev/null || skip "needs $1 (package $2)"
}
