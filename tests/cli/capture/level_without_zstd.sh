# --level is zstd's: without --codec zstd it is a usage error, and only
# zstd's levels (1 to 19) are taken.
"$CAPTURE" --trace t.trace --level 5 -- true
echo "exit $?"
"$CAPTURE" --trace t.trace --codec zstd --level 20 -- true
echo "exit $?"
