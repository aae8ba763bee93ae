# --lines is read whole: a typo is refused, never read as a shorter range.
for spec in 44-50x '44 - 50' 44-50-60 44x - 50-40; do
  "$REPLAY" --simulate --lines "$spec" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" >/dev/null
  echo "$spec: exit $?"
done
"$REPLAY" --simulate --lines 44 "$DATA/vma/inexor_vma_replays_rst_1.8.csv" >/dev/null
echo "44: exit $?"
