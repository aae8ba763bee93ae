shared="$DATA/foz"
"$STAT" "$shared/edge/truncated_header.foz" | grep -E '^(entries|torn tail) '
