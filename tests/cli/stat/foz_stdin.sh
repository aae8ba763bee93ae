cat "$DATA/foz/vkcube.72991ed96a80f842.1.foz" | "$STAT" - --json | jq -c '[.file, .entries, .file_bytes]'
