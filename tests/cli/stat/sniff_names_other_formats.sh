# A file of another tool's format is named, with what trak-stat reads instead.
"$STAT" "$DATA/foz/vkcube_json/00.72991ed96a80f842.json"; echo "exit $?"
printf 'GFXR\0\0\0\0capture' >c.gfxr
"$STAT" c.gfxr; echo "exit $?"
