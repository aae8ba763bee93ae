# Dropping vkcube's only pipeline drops what only it needed; the application info and the 7 links stay, all
# now naming missing objects.
"$MERGE" -q -o x.foz --skip-graphics e3b925b0c1c00de1 "$DATA/foz/vkcube.72991ed96a80f842.1.foz"
"$STAT" x.foz --json | jq -c '[.entries_per_tag, .dangling_links]'
