"$REPACK" "$DATA/gears.br.trace" g.trace --codec snappy
cmp g.trace "$DATA/gears.trace" && echo identical
