# .foz -> one file per entry, byte for byte what fossilize-convert-db wrote
# (vkcube_json is its output for this capture); every hash recomputed.
"$CONVERT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --to json-dir -o d --check-hashes
diff -r d "$DATA/foz/vkcube_json" && echo same
ls d | wc -l
