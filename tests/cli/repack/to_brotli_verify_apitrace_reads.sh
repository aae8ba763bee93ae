"$REPACK" "$DATA/threads.trace" t.br --codec brotli --level 5 --verify -q
apitrace dump t.br | cmp - "$DATA/threads.dump.txt" && echo same
"$CONVERT" t.br | cmp - "$DATA/threads.dump.txt" && echo same
