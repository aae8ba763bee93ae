# Files cut within their first bytes say what they were and where they end,
# not that they are no trace.
for f in gears.trace gears.gz.trace foz/vkcube.72991ed96a80f842.1.foz; do
  head -c 1 "$DATA/$f" >one
  "$STAT" one
done
head -c 22 "$DATA/vma/vma_doc_example_1.8_final.csv" >r22.csv
"$STAT" r22.csv
head -c 44 "$DATA/vma/vma_doc_example_1.8_final.csv" >r44.csv
"$STAT" r44.csv
"$MERGE" -o m.foz "$DATA/gears.trace"
exit 0
