"$REPACK" nope.trace out.trace
echo "exit $?"
ls
