# Ended by a signal: 128 + its number, as a shell reports it.
"$CAPTURE" --foz x -- sh -c 'kill -TERM $$'
