# Sourced first by the bench scripts: each runs strictly from the source
# root, and gets its tools and a scratch folder the same way, so they all
# measure the same kind of build.
set -euo pipefail
cd "$(dirname "$0")/.."

# hyperfine (and jq, which reads its JSON) where it is missing.
bench_need_hyperfine() {
  command -v hyperfine >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine jq >/dev/null
}

# A release build without the tests in build-release, of the TARGETS named
# (all without any); $b is its absolute path.
bench_build() {
  [ -f build-release/build.ninja ] || meson setup build-release --buildtype=release -Dtests=false >/dev/null
  ninja -C build-release -j2 "$@" >/dev/null
  b=$PWD/build-release
}

# $work: a scratch folder named after NAME, removed on exit.
bench_scratch() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  trap 'rm -rf "$work"' EXIT
}
