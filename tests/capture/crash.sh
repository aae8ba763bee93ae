# The driver dies inside vkCreateGraphicsPipelines (lavapipe writes creation
# feedback into a page the program made inaccessible): the pipeline being
# created is in the archive all the same, and the exit status is the crash's.
. "$SRC/lib.sh"
mkdir caps
"$CAPTURE" --foz caps/crash -- "$CRASH" > crash.out 2> crash.err
status=$?
[ "$status" = 139 ] || { cat crash.err >&2; fail "exit status $status, expected 139 (SIGSEGV)"; }
grep -q "VK_LAYER_TRAK_capture: signal 11 during pipeline creation" crash.err || fail "no word from the layer"
"$CAPTURE" --foz caps/calm -- "$CRASH" --no-crash > calm.out 2> calm.err || fail "the run without the crash"
python3 "$SRC/foz_entries.py" same caps/crash.*.foz -- caps/calm.*.foz || fail "the crashing pipeline is missing"
[ "$(count 6 caps/crash.*.foz)" = 4 ] || fail "expected 4 graphics pipelines"
replays caps/crash.*.foz
