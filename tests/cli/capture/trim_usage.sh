# A trimmed capture's ranges and trigger are checked before the command
# starts: without --trace, ranges out of order or backwards, both at once,
# and a trigger it does not know are usage errors.
"$CAPTURE" --foz caps --frames 10-20 -- true
echo "exit $?"
"$CAPTURE" --trace t.trace --frames 20-10 -- true
echo "exit $?"
"$CAPTURE" --trace t.trace --frames 10-20,15-30 -- true
echo "exit $?"
"$CAPTURE" --trace t.trace --frames 0-3 -- true
echo "exit $?"
"$CAPTURE" --trace t.trace --frames 1-2 --trigger signal -- true
echo "exit $?"
"$CAPTURE" --trace t.trace --trigger hotkey -- true
echo "exit $?"
[ ! -e t.trace ] && echo "no trace made"
