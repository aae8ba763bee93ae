# --tag keeps one tag, by trak-stat's name or Fossilize's number (fossilize-list --tag's).
cube="$DATA/foz/vkcube.72991ed96a80f842.1.foz"
"$STAT" "$cube" --list --tag shader_module
"$STAT" "$cube" --list --tag 8
"$STAT" "$cube" --list --tag compute_pipeline | wc -l
"$STAT" "$DATA/foz/synth_compute.foz" --list --tag compute_pipeline | wc -l
