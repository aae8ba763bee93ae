#!/bin/sh
# usage: run_case.sh BUILD_TOOLS_DIR DATA_DIR CASE
# Runs CASE.sh in a scratch directory with $CONVERT, $REPACK, $STAT, $REPLAY, $MERGE, $CAPTURE, $GPA,
# $APPS (the capture tests' programs) and $DATA set, then compares stdout/stderr with CASE.stdout/CASE.stderr (when present)
# and the exit status with CASE.exit (default 0). "@DATA@" in expected files
# stands for $DATA. A case with the line "# needs: vulkan device" is skipped
# (77) when trak-replay finds no Vulkan device, unless CI is set: there a
# missing device fails it. A case may exit 77 (skipped) only where an optional
# oracle tool is missing, and then says which on stderr; that line is shown.
tools=$(cd "$1" && pwd) data=$(cd "$2" && pwd)
case=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
if grep -q '^# needs: vulkan device' "$case.sh" && ! "$tools/replay/trak-replay" --list-devices >/dev/null 2>&1; then
  [ -n "${CI:-}" ] && { echo "no Vulkan device, and CI is set: failing"; exit 1; }
  echo "no Vulkan device: skipped"; exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work"
(cd "$tmp/work" && CONVERT="$tools/convert/trak-convert" REPACK="$tools/convert/trak-repack" \
  STAT="$tools/stat/trak-stat" REPLAY="$tools/replay/trak-replay" MERGE="$tools/merge/trak-merge" DATA="$data" \
  CAPTURE="$tools/capture/trak-capture" GPA="$tools/gpa/trak-gpa" APPS="$tools/../tests/capture/apps" \
  sh "$case.sh" >../stdout 2>../stderr); rc=$?
[ "$rc" = 77 ] && { echo "skipped: $(tail -n 1 "$tmp/stderr")"; exit 77; }
want=0; [ -f "$case.exit" ] && want=$(cat "$case.exit")
fail=0
[ "$rc" = "$want" ] || { echo "exit status $rc, expected $want"; cat "$tmp/stderr"; fail=1; }
for s in stdout stderr; do
  if [ -f "$case.$s" ]; then
    sed "s|@DATA@|$data|g" "$case.$s" > "$tmp/expected.$s"
    diff -u "$tmp/expected.$s" "$tmp/$s" || fail=1
  fi
done
exit $fail
