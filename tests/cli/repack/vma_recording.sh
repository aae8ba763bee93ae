# A VMA recording is recompressed as what VMA tools and trak read (gzip by
# default, brotli, or plain), checked byte for byte; snappy is refused.
r="$DATA/vma/inexor_vma_replays_rst_1.8.csv"
"$REPACK" "$r" r.gz --verify; echo "exit $?"
gzip -dc r.gz | cmp - "$r" && echo "gzip: same recording"
"$REPACK" r.gz r.br --codec brotli --verify; echo "exit $?"
"$REPACK" r.br r.csv --codec none --verify; echo "exit $?"
cmp r.csv "$r" && echo "plain: same recording"
"$STAT" r.br --json | jq -c '[.format, .calls]'
"$REPACK" "$r" r.snappy --codec snappy; echo "exit $?"
