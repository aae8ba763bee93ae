#!/usr/bin/env bash
# Every C and C++ file of the project as its .clang-format writes it: a
# change the formatter would make fails here, naming the files, so style
# never drifts between reviews.
set -uo pipefail
root=${1:?usage: check_format.sh SOURCE_ROOT}
cd "$root" || exit 1
if ! command -v clang-format >/dev/null; then
  echo "SKIP: clang-format (Debian's clang-format) is not installed: the formatting is not checked" >&2
  exit 77
fi
# The tracked files in a checkout; every file below the root in an unpacked
# tarball, build folders left out.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.cpp' '*.hpp' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
else
  mapfile -t files < <(find . \( -name 'build*' -prune \) -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) -print)
fi
((${#files[@]})) || { echo "check_format: no C or C++ files below $root" >&2; exit 1; }
# One clang-format for all: its warnings name file:line:col.
out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1)
rc=$?
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$out" | sort -u)
if [ "$rc" != 0 ] && ((${#bad[@]} == 0)); then
  echo "check_format: clang-format failed (exit $rc): $(head -n 3 <<<"$out")" >&2
  exit 1
fi
if ((${#bad[@]})); then
  echo "check_format: ${#bad[@]} of ${#files[@]} files differ from what clang-format writes (run clang-format -i on them):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files as clang-format writes them"
