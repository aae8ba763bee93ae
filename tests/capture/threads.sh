# Many threads, devices and instances at once; every pipeline once.
. "$SRC/lib.sh"
mkdir caps
"$CAPTURE" --foz caps/t --json -o one.json -- "$STORM" --threads 8 --graphics 400 --compute 100 > t.out 2> t.err ||
  fail "8 threads"
[ "$(jq '.archives[0].entries_per_tag.graphics_pipeline' one.json)" = 400 ] || fail "400 graphics pipelines"
[ "$(jq '.archives[0].entries_per_tag.compute_pipeline' one.json)" = 100 ] || fail "100 compute pipelines"
[ "$(jq '.archives[0].entries_per_tag.application_blob_link' one.json)" = 508 ] || fail "one link per object"
"$CAPTURE" --foz caps/d --json -o dev.json -- "$STORM" --devices 3 --concurrent --graphics 60 > d.out 2> d.err ||
  fail "3 devices"
# Devices of one application share its archive; render pass 1 and 2 make two sets.
[ "$(jq '.archives | length' dev.json)" = 1 ] || fail "one archive for three devices"
[ "$(jq '.archives[0].entries_per_tag.graphics_pipeline' dev.json)" = 120 ] || fail "120 graphics pipelines"
"$CAPTURE" --foz caps/i --json -o inst.json -- "$STORM" --instances 3 --concurrent --graphics 30 > i.out 2> i.err ||
  fail "3 instances"
[ "$(jq '.archives | length' inst.json)" = 3 ] || fail "one archive per application name"
"$CAPTURE" --foz caps/s --json -o same.json -- "$STORM" --same --threads 8 > s.out 2> s.err || fail "--same"
[ "$(jq '.archives[0].entries_per_tag.graphics_pipeline' same.json)" = 1 ] || fail "duplicates recorded"
replays caps/t.*.foz caps/d.*.foz
