# trak-gpa profile keeps what it measured when the application does not end
# well: killed by a signal in the middle of its frames (rows written whole,
# straight to the file; the profile, its files and the application's status),
# or dead right after making its device (said as such, not "no device").
. "$SRC/lib.sh"

profile int -o int.json --html int.html -- timeout -s INT 2 "$WORK" --frames 1000000
[ "$rc" = 124 ] || { cat int.err >&2; fail "timeout's status expected (124), got $rc"; }
[ -s int.html ] || fail "no page"
frames=$(jq .frames int.json) || fail "no profile: $(cat int.err)"
[ "$frames" -gt 10 ] || fail "only $frames frames in 2 s"
expect int.json '(.samples | length) >= .frames' true
grep -q "profiler cost      unknown" int.err || fail "the summary should say the profile was not closed"

# SIGTERM to trak-gpa itself (timeout(1), a CI runner, a service manager):
# passed on to the application, and the profile is kept.
many=$(own_count)
"$GPA" profile -o term.json -- "$WORK" --frames "$many" > term.out 2> term.err &
pid=$!
sleep 5
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" = 143 ] || { cat term.err >&2; fail "SIGTERM to trak-gpa: status $rc, expected 143"; }
[ "$(jq .frames term.json)" -gt 0 ] || { cat term.err >&2; fail "SIGTERM to trak-gpa: no frames"; }
pgrep -f "gpa_work --frames $many" > /dev/null && fail "SIGTERM to trak-gpa: the application still runs"

profile crash -- "$WORK" --crash
[ "$rc" = 139 ] || { cat crash.err >&2; fail "the application's status expected (139), got $rc"; }
# (The command's first word: gpa_work, or the harness script that runs it.)
grep -qx "trak-gpa: [a-z_.]* made a Vulkan device, then died with signal 11 (Segmentation fault) before any sample" \
  crash.err || { cat crash.err >&2; fail "the crash is not reported as such"; }

# glxgears never ends by itself: on zink it is a Vulkan application stopped
# by a signal.
need_xvfb glxgears mesa-utils
profile gears -o gears.json -- env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 \
  xvfb-run -a -n "$(display_from)" -s "-screen 0 640x480x24 +extension GLX" timeout -s INT 4 glxgears
[ "$rc" = 124 ] || { cat gears.err >&2; fail "glxgears on zink: timeout's status expected (124), got $rc"; }
[ "$(jq .frames gears.json)" -gt 0 ] || { cat gears.err >&2; fail "no frames of glxgears"; }
