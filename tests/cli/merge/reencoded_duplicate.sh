# The same payload stored compressed in one archive and not in the other is not a conflict.
"$REPACK" -q "$DATA/foz/edge/tiny_one_sampler.foz" z.foz --codec zlib --level 1
"$MERGE" -o out.foz "$DATA/foz/edge/tiny_one_sampler.foz" z.foz --json | jq -c '[.identical_duplicates, .reencoded_duplicates, .conflicts]'
