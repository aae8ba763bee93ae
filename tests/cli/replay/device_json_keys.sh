# needs: vulkan device
# The --json contract: every top-level key, and those of a heap and of a mapping.
"$REPLAY" --json "$DATA/vma/vma_doc_example_1.8_final.csv" | jq -c 'keys_unsorted, (.heaps[0] | keys_unsorted), (.memory_type_mapping[0] | keys_unsorted), (.device | keys_unsorted)'
