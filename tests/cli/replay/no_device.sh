# A loader with no driver: one line, exit 1.
VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json "$REPLAY" "$DATA/vma/vma_doc_example_1.8_final.csv"
