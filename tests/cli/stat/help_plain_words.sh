# --help in plain words: no CLI11 notation, descriptions within 100 columns
# (the examples may run longer), one spelling for parallelism (-j, --jobs).
for t in "$STAT" "$CONVERT" "$REPACK" "$MERGE" "$REPLAY"; do
  h=$("$t" --help)
  echo "$h" | grep -E '\{false\}|\{true\}|UINT|TEXT|INT:' && echo "$(basename "$t"): CLI11 notation"
  echo "$h" | awk -v t="$(basename "$t")" '/^Examples:/ { exit } length > 100 { print t ": line over 100 columns: " $0 }'
done
for t in "$STAT" "$REPACK" "$REPLAY"; do "$t" --help | grep -q -- '-j, --jobs N' || echo "$(basename "$t"): no -j, --jobs"; done
echo done
