shared="$DATA/../../../shared/data/foz"
[ -d "$shared" ] || exit 77
"$STAT" "$shared/edge/truncated_header.foz" | grep -E '^(entries|torn tail) '
