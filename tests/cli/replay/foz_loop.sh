# --loop N: every selected pipeline N times, each pass counted (fossilize-replay --loop, to time a driver).
synth="$DATA/foz/synth_compute.foz"
"$REPLAY" "$synth" --null-device --jobs 2 --no-progress --range 0-9 --loop 3 --json | jq -c '[.loop, .compute.total, .compute.ok]'
"$REPLAY" "$synth" --null-device --jobs 1 --no-progress --range 0-9 --loop 3 | grep -E '^(passes|compute) '
"$REPLAY" "$synth" --null-device --jobs 1 --no-progress --range 0-9 --json | jq -c '[.loop, .compute.total]'
