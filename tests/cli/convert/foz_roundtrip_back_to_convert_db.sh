# JSON -> .foz -> JSON, from both layouts: the entries come back as
# fossilize-convert-db's files, byte for byte (shader modules included).
"$CONVERT" "$DATA/foz/vkcube_json" --to foz -o a.foz --check-hashes
"$CONVERT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" | "$CONVERT" - --to foz -o b.foz --check-hashes
cmp a.foz b.foz && echo same-archive
"$CONVERT" b.foz --to json-dir -o d
diff -r d "$DATA/foz/vkcube_json" && echo same-files
"$CONVERT" a.foz --to foz -o c.foz 2>&1
echo "exit $?"
