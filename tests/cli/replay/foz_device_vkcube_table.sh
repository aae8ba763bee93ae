# needs: vulkan device
# vkcube's one pipeline on the device; the table's rows (times vary, so only those).
"$REPLAY" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --pipeline-cache c.bin | grep -E '^(type|graphics|compute|raytracing) '
od -A n -t u4 -N 8 c.bin | tr -s ' '
