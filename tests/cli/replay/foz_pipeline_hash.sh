# --pipeline-hash: one pipeline (or a few) by hash, whatever its type; the objects it needs are made on
# demand as always. Hashes as trak-stat --list prints them; leading zeros may go.
synth="$DATA/foz/synth_compute.foz"
run() { "$REPLAY" "$@" --null-device --jobs 1 --no-progress --json | jq -c '[.graphics.total, .compute.total, .compute.ok]'; }
run "$synth" --pipeline-hash 0042902a664a5875
run "$synth" --pipeline-hash 42902a664a5875 --pipeline-hash 001db2ccd3114757
run "$DATA/foz/vkcube.72991ed96a80f842.1.foz" "$synth" --pipeline-hash e3b925b0c1c00de1 --pipeline-hash 0x001db2ccd3114757
