# The report's file is checked before the command runs: no full run ending in "cannot write".
"$CAPTURE" --trace t.trace -o nowhere/report.txt -- touch ran
s=$?; test ! -e ran && exit $s
