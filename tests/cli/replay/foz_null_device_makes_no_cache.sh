shared="$DATA/foz"
"$REPLAY" "$shared/synth_compute.foz" --null-device --pipeline-cache out.bin
rc=$?
ls
exit $rc
