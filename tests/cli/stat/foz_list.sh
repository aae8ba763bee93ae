# Every entry Fossilize reads, one "TAG HASH" line each: by tag in Fossilize's order, then by hash.
"$STAT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --list
