cat "$DATA/foz/vkcube.72991ed96a80f842.1.foz" | "$REPACK" -q - - --codec none --crc keep | "$STAT" - --json | jq -c '[.entries, .file_bytes]'
