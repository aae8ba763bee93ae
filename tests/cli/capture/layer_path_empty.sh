# --layer-path names the folder of the manifest: one without it is refused before the command runs.
mkdir empty
"$CAPTURE" --trace t.trace --layer-path empty -- touch ran
s=$?; test ! -e ran && exit $s
