# vkcube's one pipeline on the device; the table's rows (times vary, so only those).
"$REPLAY" --list-devices 2>/dev/null | grep -q . || { [ -n "$CI" ] && exit 1; exit 77; }
"$REPLAY" "$DATA/../../../shared/data/foz/vkcube.72991ed96a80f842.1.foz" --pipeline-cache c.bin | grep -E '^(type|graphics|compute|raytracing) '
od -A n -t u4 -N 8 c.bin | tr -s ' '
