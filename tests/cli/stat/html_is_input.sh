# --html naming the recording itself is refused; the recording stays.
cp "$DATA/vma/vma_doc_example_1.8_final.csv" r.csv
"$STAT" r.csv --html r.csv; echo "exit $?"
cmp r.csv "$DATA/vma/vma_doc_example_1.8_final.csv" && echo "input intact"
