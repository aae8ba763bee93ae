"$CONVERT" --help | grep -c "^Examples:"
