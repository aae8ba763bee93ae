"$STAT" --help | grep -c "^Examples:"
