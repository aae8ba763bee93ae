"$CONVERT" "$DATA/texture.trace" --to trace -o rt.trace
apitrace dump rt.trace | cmp - "$DATA/texture.dump.txt" && echo same
