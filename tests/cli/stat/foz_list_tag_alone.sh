# --tag filters the list; alone it would be ignored.
"$STAT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --tag sampler
