# Cut inside a call (inside the GLenum signature of call 5): the calls before
# it, as apitrace dumps them, then one error line.
"$CONVERT" "$DATA/gears.trunc60.trace" >out.txt
echo "exit $?"
cmp out.txt "$DATA/gears.trunc60.dump.txt" && echo same
