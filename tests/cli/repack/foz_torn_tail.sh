"$REPACK" -q "$DATA/foz/edge/torn_before_append.foz" fixed.foz --codec none --crc keep
cmp fixed.foz "$DATA/foz/edge/torn_then_appended.foz" 2>/dev/null; head -c 82 "$DATA/foz/edge/torn_before_append.foz" | cmp - fixed.foz && echo "the sampler before the tear, unchanged"
