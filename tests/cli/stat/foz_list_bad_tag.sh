"$STAT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --list --tag mesh_pipeline
