#!/bin/sh
# usage: run_case.sh BUILD_TOOLS_DIR DATA_DIR CASE
# Runs CASE.sh in a scratch directory with $CONVERT, $REPACK, $STAT, $REPLAY, $MERGE and
# $DATA set, then compares stdout/stderr with CASE.stdout/CASE.stderr (when present)
# and the exit status with CASE.exit (default 0). "@DATA@" in expected files
# stands for $DATA. A case that exits 77 (data beside the repository missing) is skipped.
tools=$(cd "$1" && pwd) data=$(cd "$2" && pwd)
case=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work"
(cd "$tmp/work" && CONVERT="$tools/convert/trak-convert" REPACK="$tools/convert/trak-repack" \
  STAT="$tools/stat/trak-stat" REPLAY="$tools/replay/trak-replay" MERGE="$tools/merge/trak-merge" DATA="$data" \
  sh "$case.sh" >../stdout 2>../stderr); rc=$?
[ "$rc" = 77 ] && exit 77
want=0; [ -f "$case.exit" ] && want=$(cat "$case.exit")
# 77: the case needs something this machine lacks (a Vulkan device): skipped.
[ "$rc" = 77 ] && [ "$want" != 77 ] && { cat "$tmp/stderr"; exit 77; }
fail=0
[ "$rc" = "$want" ] || { echo "exit status $rc, expected $want"; cat "$tmp/stderr"; fail=1; }
for s in stdout stderr; do
  if [ -f "$case.$s" ]; then
    sed "s|@DATA@|$data|g" "$case.$s" > "$tmp/expected.$s"
    diff -u "$tmp/expected.$s" "$tmp/$s" || fail=1
  fi
done
exit $fail
