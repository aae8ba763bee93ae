# Counts per tag as the data README says Fossilize reads them: 0:1 1:1 2:1 3:1 4:2 5:1 6:1 8:7.
"$STAT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --json | jq -c '[.format, .version, .entries, .entries_per_tag, .torn_tail, .crc_failures, .dangling_references]'
