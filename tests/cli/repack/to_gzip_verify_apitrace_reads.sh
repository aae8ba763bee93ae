"$REPACK" "$DATA/texture.trace" t.gz --codec gzip --verify
head -c 2 t.gz | od -An -tx1
apitrace dump t.gz | cmp - "$DATA/texture.dump.txt" && echo same
