R="$DATA/vma/vma_doc_example_1.8_final.csv"
"$CONVERT" "$R" --to csv --version 1.5 -o v15.csv
sed -n 2p v15.csv
"$CONVERT" v15.csv --to csv --version 1.8 | grep "^[0-9]*,[0-9.]*,[0-9]*,vma" >calls.csv
grep "^[0-9]*,[0-9.]*,[0-9]*,vma" "$R" | cmp - calls.csv && echo calls-identical
"$CONVERT" "$DATA/vma/vma_doc_example_1.2_b3ea2c6.csv" --to csv --version 1.2 | cmp - "$DATA/vma/vma_doc_example_1.2_b3ea2c6.csv" && echo 1.2-identical
