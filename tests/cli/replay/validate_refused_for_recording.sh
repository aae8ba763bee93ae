# --validate runs spirv-val on shader modules: a VMA recording has none.
"$REPLAY" --validate "$DATA/vma/vma_doc_example_1.8_final.csv" >/dev/null
echo "exit $?"
