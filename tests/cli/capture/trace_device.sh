# A device is not a trace file: refused before the command runs.
"$CAPTURE" --trace /dev/full -- touch ran
s=$?; test ! -e ran && exit $s
