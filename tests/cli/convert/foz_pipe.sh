# Archives stream through pipes, both to a directory and to a document.
cat "$DATA/foz/vkcube.72991ed96a80f842.1.foz" | "$CONVERT" - --to json-dir -o d
diff -r d "$DATA/foz/vkcube_json" && echo same
cat "$DATA/foz/vkcube.72991ed96a80f842.1.foz" | "$CONVERT" - | jq -c '.renderPasses | keys'
