# Objects made before a fork, more after it in parent and child: each process
# writes an archive of its own, and each archive holds everything its
# pipelines refer to.
. "$SRC/lib.sh"
mkdir caps
"$CAPTURE" --foz caps/fork --json -o report.json -- "$STORM" --fork --threads 2 --graphics 100 --compute 10 \
  > fork.out 2> fork.err || { cat fork.err >&2; fail "the forking program"; }
[ "$(jq '.archives | length' report.json)" = 2 ] || fail "expected two archives (parent and child)"
[ "$(jq '[.archives[].dangling_references | length] | add' report.json)" = 0 ] || fail "dangling references"
# Parent: the 100 pipelines it made; child: the 50 from before the fork, its own 50, and 100 more.
[ "$(jq '[.archives[].entries_per_tag.graphics_pipeline] | sort | join(",")' report.json)" = '"100,200"' ] ||
  fail "pipelines per archive: $(jq -c '[.archives[].entries_per_tag.graphics_pipeline]' report.json)"
replays caps/fork.*.foz
