# Every device of every process of the command is in the profile: two
# devices of one process, processes one after the other and at once, a
# replay that makes a device per pass, and a forked child that leaves with
# exit() (it must not write its copy of the parent's rows).
. "$SRC/lib.sh"

profile two -o two.json -- "$WORK" --devices 2 --frames 5
[ "$rc" = 0 ] || { cat two.err >&2; fail "two devices: exit $rc"; }
expect two.json '[.frames, (.samples | length), (.devices | length)]' '[10,10,2]'
expect two.json '[.samples[] | .device] | unique' '[0,1]'
grep -q "devices            2 in 1 process" two.err || fail "the summary does not say two devices"

profile seq -o seq.json -- sh -c '"$0" --frames 3 && "$0" --frames 4' "$WORK"
[ "$rc" = 0 ] || { cat seq.err >&2; fail "two processes in turn: exit $rc"; }
expect seq.json '[.frames, (.samples | length), ([.devices[].pid] | unique | length)]' '[7,7,2]'
expect seq.json '[.devices[].frames]' '[3,4]'  # in the order they were made

profile par -o par.csv -- sh -c '"$0" --frames 6 & "$0" --frames 6 --devices 2; wait' "$WORK"
[ "$rc" = 0 ] || { cat par.err >&2; fail "processes at once: exit $rc"; }
[ "$(tail -n +2 par.csv | wc -l)" = 18 ] || fail "processes at once: $(tail -n +2 par.csv | wc -l) of 18 samples"
[ "$(tail -n +2 par.csv | cut -d, -f1 | sort -u | tr '\n' ' ')" = "0 1 2 " ] || fail "three devices expected"

profile fork -o fork.json -- "$WORK" --frames 6 --fork
[ "$rc" = 0 ] || { cat fork.err >&2; fail "a forked child: exit $rc"; }
expect fork.json '[.frames, (.samples | length), (.devices | length)]' '[6,6,1]'
expect fork.json '[.samples[].frame]' '[1,2,3,4,5,6]'

# The README's example: a replay made by trak-replay, three passes.
command -v xvfb-run >/dev/null && command -v vkcube >/dev/null || skip "needs xvfb-run and vkcube for the replay"
xrun "$TOOLS/capture/trak-capture" --trace cube.trace -- vkcube --c 10 > cap.out 2> cap.err ||
  { cat cap.err >&2; fail "capture vkcube"; }
profile loop -o loop.json -- "$TOOLS/replay/trak-replay" cube.trace --loop 3
[ "$rc" = 0 ] || { cat loop.err >&2; fail "trak-replay --loop 3: exit $rc"; }
expect loop.json '[.frames, [.devices[].frames]]' '[30,[10,10,10]]'
expect loop.json '[.samples[] | select(.frame >= 2)] | length' 27
