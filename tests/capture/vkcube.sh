# vkcube captured through trak-capture holds what Fossilize's own layer
# recorded from the same program (tests/data/foz/vkcube.*.foz, written by the
# oracle on lavapipe): same entries, same JSON and SPIR-V; and it replays.
. "$SRC/lib.sh"
need_xvfb vkcube vulkan-tools
mkdir caps
xrun "$CAPTURE" --foz caps/cube --json -o report.json -- vkcube --c 20 > cube.out 2> cube.err ||
  { cat cube.err >&2; fail "trak-capture vkcube"; }
archive=caps/cube.72991ed96a80f842.1.foz
[ -f "$archive" ] || fail "no $archive (the name carries Fossilize's application hash)"
python3 "$SRC/foz_entries.py" same "$archive" -- "$DATA/foz/vkcube.72991ed96a80f842.1.foz" ||
  fail "vkcube's archive differs from Fossilize's"
[ "$(jq -r '.archives[0].file' report.json)" = "$archive" ] || fail "report names $(jq -r '.archives[0].file' report.json)"
[ "$(jq '.status' report.json)" = 0 ] || fail "status in the report"
[ "$(jq '.archives[0].entries_per_tag.graphics_pipeline' report.json)" = 1 ] || fail "graphics pipelines in the report"
"$CONVERT" "$archive" --to json --check-hashes > /dev/null || fail "hashes do not check"
replays "$archive"
