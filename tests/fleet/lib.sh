# Shared by the fleet tests, which run README.md's recipes for warming pipeline
# caches on a cluster as they are written there. Sourced with $name set;
# meson passes TOOLS (the build's tools folder), DATA and README.
set -u

fail() {
  echo "$name: $*" >&2
  exit 1
}

# A test skips (77) only for what this machine cannot give it, and says which
# package would: CI counts a skip as a failure.
need() {
  command -v "$1" >/dev/null 2>&1 || {
    echo "$name: skipped: $1 not found: install Debian's $2 ($3)" >&2
    exit 77
  }
}

# The fenced block after "<!-- fleet:MARKER -->" in the README.
readme_block() {
  awk -v m="<!-- fleet:$1 -->" '
    $0 == m { f = 1; next }
    f == 1 && /^```/ { f = 2; next }
    f == 2 && /^```/ { exit }
    f == 2 { print }' "$README"
}

# A folder with game.foz (synth_compute: 1500 compute pipelines, enough for
# every part to get some) and the tools on PATH, as the recipes expect.
setup_work() {
  work=$(mktemp -d /tmp/trak-fleet.XXXXXX) || exit 99
  cp "$DATA/foz/synth_compute.foz" "$work/game.foz"
  PATH="$TOOLS/replay:$TOOLS/stat:$PATH"
  export PATH
  # Each part's workers compile on lavapipe; the driver's own disk cache
  # would only add writes to this machine's home.
  MESA_SHADER_CACHE_DISABLE=true
  export MESA_SHADER_CACHE_DISABLE
}

# The parts' resume databases (done-I.foz, I in 0..N-1) together list every
# pipeline of game.foz once, each part some; the merged cache loads.
check_parts() {
  n=$1
  i=0
  : >"$work/parts.txt"
  while [ "$i" -lt "$n" ]; do
    [ -f "$work/done-$i.foz" ] || fail "part $i left no done-$i.foz"
    trak-stat --list "$work/done-$i.foz" >"$work/part-$i.txt" || fail "trak-stat --list done-$i.foz failed"
    [ -s "$work/part-$i.txt" ] || fail "part $i replayed no pipeline"
    cat "$work/part-$i.txt" >>"$work/parts.txt"
    i=$((i + 1))
  done
  sort "$work/parts.txt" >"$work/parts.sorted"
  dup=$(uniq -d "$work/parts.sorted" | head -n 3)
  [ -z "$dup" ] || fail "pipelines replayed by two parts: $dup"
  trak-stat --list "$work/game.foz" | grep '_pipeline ' | sort >"$work/whole.txt"
  cmp -s "$work/parts.sorted" "$work/whole.txt" ||
    fail "the parts are not the whole archive: $(diff "$work/whole.txt" "$work/parts.sorted" | head -n 5)"
  [ -f "$work/merged.bin" ] || fail "the merge step wrote no merged.bin"
  loaded=$(cd "$work" && trak-replay game.foz --range 0 --jobs 1 --no-progress --load-cache merged.bin --json |
    jq .caches_loaded)
  [ "$loaded" = 1 ] || fail "merged.bin did not load (caches_loaded: $loaded)"
  echo "$name: $(wc -l <"$work/whole.txt") pipelines in $n parts, merged cache loaded"
}
