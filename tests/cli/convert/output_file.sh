"$CONVERT" "$DATA/texture.trace" -o t.txt && cmp t.txt "$DATA/texture.dump.txt" && ls
