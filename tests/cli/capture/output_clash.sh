# Two outputs under one name would leave only one: refused before the command runs.
"$CAPTURE" --trace same.json -o same.json -- touch ran
s=$?; test ! -e ran && exit $s
