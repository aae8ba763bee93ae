# The layer linked 7 objects to vkcube's application hash (the hash in the file name), one a graphics pipeline;
# objects are zlib with CRCs, the links uncompressed with CRCs.
"$STAT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --json | jq -c '.applications, [.per_tag[] | select(.entries > 0) | [.entries == .crc_entries, .zlib_entries]]'
