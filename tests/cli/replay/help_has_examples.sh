"$REPLAY" --help | grep -c "^Examples:"
