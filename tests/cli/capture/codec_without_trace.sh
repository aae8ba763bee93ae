# --codec is the trace's container: without --trace it is a usage error, and
# only the containers a capture can be written in are taken.
"$CAPTURE" --foz caps --codec zstd -- true
echo "exit $?"
"$CAPTURE" --trace t.trace --codec brotli -- true
echo "exit $?"
