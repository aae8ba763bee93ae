# needs: vulkan device
"$REPLAY" --device 99 "$DATA/vma/vma_doc_example_1.8_final.csv" 2>err
echo "exit $?"
sed 's/ (the devices: .*//' err
"$REPLAY" --device 'no such device' "$DATA/vma/vma_doc_example_1.8_final.csv" 2>err
echo "exit $?"
sed 's/ (the devices: .*//' err
