shared="$DATA/foz"
# One of the 1500 compute pipelines, named in a list, with what they need.
printf '# hot pipelines\ncompute_pipeline 001db2ccd3114757\n' >list.txt
"$MERGE" -q -o x.foz --keep-list list.txt "$shared/synth_compute.foz"
"$STAT" x.foz --json | jq -c '[.entries_per_tag.compute_pipeline, .entries_per_tag.pipeline_layout, .entries_per_tag.shader_module, .dangling_references]'
printf 'sampler zz\n' >bad.txt
"$MERGE" -q -o y.foz --keep-list bad.txt "$shared/synth_compute.foz"
echo "exit $?"
