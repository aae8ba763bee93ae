# One document: each object in it is the same JSON value as in
# fossilize-convert-db's file for that entry.
"$CONVERT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" -o doc.json
n=0
for f in "$DATA"/foz/vkcube_json/0[1235678].*.json; do
  key=$(tr -d '\0' <"$f" | jq -r 'keys[] | select(. != "version")')
  hash=$(basename "$f" .json | cut -d. -f2)
  case $key in link) continue ;; esac
  a=$(jq -S --arg k "$key" --arg h "$hash" '.[$k][$h]' "$f")
  b=$(jq -S --arg k "$key" --arg h "$hash" '.[$k][$h]' doc.json)
  [ "$a" = "$b" ] && n=$((n + 1)) || echo "differs: $f"
done
echo "$n objects equal"
jq -S '{applicationInfo, physicalDeviceFeatures}' doc.json >app.json
jq -S '{applicationInfo, physicalDeviceFeatures}' "$DATA/foz/vkcube_json/00.72991ed96a80f842.json" | cmp - app.json && echo app-same
jq -c '(.links | length), (.shaderModules | keys)' doc.json
