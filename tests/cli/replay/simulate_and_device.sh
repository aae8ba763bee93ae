"$REPLAY" --simulate --device 0 "$DATA/vma/vma_doc_example_1.8_final.csv"
