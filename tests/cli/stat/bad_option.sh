"$STAT" --top
