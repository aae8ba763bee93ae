# Options of one input kind are refused for the other, not silently ignored.
"$REPLAY" --simulate --jobs 2 "$DATA/vma/vma_doc_example_1.8_final.csv" >/dev/null
echo "exit $?"
"$REPLAY" --simulate "$DATA/foz/vkcube.72991ed96a80f842.1.foz" >/dev/null
echo "exit $?"
