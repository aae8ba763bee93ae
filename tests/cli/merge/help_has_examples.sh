"$MERGE" --help | grep -c "^Examples:"
