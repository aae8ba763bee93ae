"$CONVERT" - <"$DATA/texture.br.trace" | cmp - "$DATA/texture.dump.txt" && echo same
