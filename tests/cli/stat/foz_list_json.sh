# --json: one object, the entries with their offsets and sizes (stored, and decoded as the header says).
cube="$DATA/foz/vkcube.72991ed96a80f842.1.foz"
"$STAT" "$cube" --list --json --tag graphics_pipeline
"$STAT" "$cube" --list --json | jq -c '[(.entries | length), .entries[0], .tag, .torn_tail, .error]'
