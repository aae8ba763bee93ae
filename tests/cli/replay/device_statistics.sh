# needs: vulkan device
# VmaReplay's statistics block (its wording; figures counted in VMA's documentation example).
"$REPLAY" "$DATA/vma/vma_doc_example_1.8_final.csv" | sed -n '/^Statistics:/,/one thread/p' | grep -v vmaAllocateMemory
