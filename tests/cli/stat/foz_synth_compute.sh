shared="$DATA/foz"
# fossilize-synth: 1500 compute pipelines, uncompressed, CRC 0 (data README).
"$STAT" "$shared/synth_compute.foz" --json | jq -c '[.entries_per_tag.compute_pipeline, .entries_per_tag.application_blob_link, .per_tag.compute_pipeline.zlib_entries, .per_tag.compute_pipeline.crc_entries, .applications[0].compute_pipelines, .torn_tail]'
