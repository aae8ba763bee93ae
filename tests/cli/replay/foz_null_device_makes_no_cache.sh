shared="$DATA/../../../shared/data/foz"
[ -d "$shared" ] || exit 77
"$REPLAY" "$shared/synth_compute.foz" --null-device --pipeline-cache out.bin
rc=$?
ls
exit $rc
