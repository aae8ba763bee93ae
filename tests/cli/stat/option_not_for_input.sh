# An option that does not apply to what the input turns out to be is a
# usage error, not silently ignored.
"$STAT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --top 3; echo "exit $?"
"$STAT" "$DATA/vma/vma_doc_example_1.8_final.csv" --all; echo "exit $?"
"$STAT" "$DATA/gears.trace" -j 2; echo "exit $?"
"$STAT" "$DATA/gears.trace" --keep-going; echo "exit $?"
