# The profiler's own commands are valid Vulkan: with the validation layer
# below it, an application's validation output is the same with and without
# the profiler. Its queries are reset before each run of a command buffer
# that is submitted again without being recorded again (as vkcube does).
. "$SRC/lib.sh"
[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] ||
  skip "needs VK_LAYER_KHRONOS_validation (package vulkan-validationlayers)"

"$WORK" --validate --record-once --draws --frames 4 > alone.out 2> alone.err || { cat alone.err >&2; fail "gpa_work alone"; }
grep "validation error" alone.err > alone.vuids
for per in command-buffer render-pass draw; do
  profile "$per" --per "$per" -- "$WORK" --validate --record-once --draws --frames 4
  [ "$rc" = 0 ] || { cat "$per.err" >&2; fail "--per $per: exit $rc"; }
  grep "validation error" "$per.err" > "$per.vuids"
  diff alone.vuids "$per.vuids" >&2 || fail "--per $per: validation says other things under the profiler"
done

need_xvfb vkcube vulkan-tools
# vkcube prints what the validation layer says on stdout, one "ERROR : ... Message Id Name: VUID" block each.
vuids() { sed -n 's/^ERROR.*Message Id Name: \([^ ]*\).*/\1/p' "$1" | sort; }
xrun vkcube --validate --c 10 > cube.out 2> cube.err || { cat cube.err >&2; fail "vkcube --validate alone"; }
xrun "$GPA" profile -- vkcube --validate --c 10 > pcube.out 2> pcube.err || { cat pcube.err >&2; fail "vkcube under the profiler"; }
grep -q "frames             10 presented" pcube.err || { cat pcube.err >&2; fail "vkcube was not profiled"; }
vuids cube.out > cube.vuids
vuids pcube.out > pcube.vuids
diff cube.vuids pcube.vuids >&2 || fail "vkcube's validation says other things under the profiler"
