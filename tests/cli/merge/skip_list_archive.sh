# A skip list given as an archive, as fossilize-prune --blacklist takes one: every entry in it is dropped.
# A replay's --skip-done database leaves what is still to do.
shared="$DATA/foz"
"$REPLAY" "$shared/synth_compute.foz" --null-device --range 0-9 --skip-done done.foz --no-progress >/dev/null
"$MERGE" -q -o todo.foz --skip-list done.foz "$shared/synth_compute.foz"
"$STAT" todo.foz --list --tag compute_pipeline | wc -l
"$STAT" done.foz --list >done.txt
"$STAT" todo.foz --list | cat - done.txt | sort | uniq -d | wc -l
# The rest of the whole: a replay that resumes from done.foz does what todo.foz holds.
"$REPLAY" todo.foz --null-device --json --no-progress | jq -c '.compute | [.total, .ok]'
# A torn skip archive counts up to the tear, with a warning (as Fossilize reads a torn archive).
head -c 100 done.foz >cut.foz
printf 'junk' >>cut.foz
"$MERGE" -q -o w.foz --skip-list cut.foz "$shared/synth_compute.foz"
echo "exit $?"
# Skipping an object a pipeline needs (here the one pipeline layout) takes the pipelines with it: kept,
# they could not be created.
"$STAT" "$shared/synth_compute.foz" --list --tag pipeline_layout >layout.txt
"$MERGE" -q -o v.foz --skip-list layout.txt "$shared/synth_compute.foz"
"$STAT" v.foz --json | jq -c '[.entries_per_tag.compute_pipeline, .entries_per_tag.pipeline_layout, .dangling_references]'
