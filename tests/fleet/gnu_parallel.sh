#!/bin/sh
# fleet/gnu_parallel: README.md's GNU parallel recipe as written there, with a
# hosts.txt of ":" (this machine: no ssh here), then its merge step.
name=fleet/gnu_parallel
. "$(dirname "$0")/lib.sh"

need parallel parallel "runs the README's parallel line"
need jq jq "reads trak-replay --json"
setup_work
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
readme_block gnu-parallel >recipe.sh
grep -q '^seq 0 15 | parallel ' recipe.sh || fail "README.md's fleet:gnu-parallel block runs no parallel line"
echo : >hosts.txt
# --will-cite: GNU parallel's notice would otherwise land in the log.
PARALLEL=--will-cite sh -e recipe.sh >recipe.out 2>recipe.err || fail "the recipe failed: $(tail -n 5 recipe.err)"
check_parts 16
