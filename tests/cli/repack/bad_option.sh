"$REPACK" --codec lzma a b
