"$REPLAY" "$DATA/vma/inexor_vma_replays_rst_1.8.csv"
