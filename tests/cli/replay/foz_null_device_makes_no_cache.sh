"$REPLAY" "$DATA/../../../shared/data/foz/synth_compute.foz" --null-device --pipeline-cache out.bin
rc=$?
ls
exit $rc
