"$REPACK" --help | grep -c "^Examples:"
