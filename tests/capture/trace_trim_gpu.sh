# A trimmed capture (--frames 20-24) of an application whose pictures are
# what earlier frames left on the device alone (apps/trim_accumulate.cpp):
# an array image cleared a layer a frame, a buffer filled and updated on the
# device and copied into it, a render target and its depth/stencil image
# loaded by a render pass that clears a rectangle of each; and a staging
# buffer the host wrote once before them all, copied from every frame, and
# through an alias bound to its memory later (a copy of it in the state). The
# state at frame 20 is read back by the layer; replayed offscreen, frames
# 20-24 equal the capture-time snapshots bit for bit, and those equal the
# ones a whole capture takes. One byte changed in any object's restored
# contents shows in the picture: the comparison would see a state left out.
. "$SRC/lib.sh"
need_xvfb xvfb-run xvfb
need_apitrace
command -v python3 > /dev/null || skip "needs python3 to edit captures"
xrun "$CAPTURE" --trace t.trace --frames 20-24 --snapshot 20,22,24 -- "$TRIM_APP" 30 > cap.out 2> cap.err ||
  { cat cap.err >&2; fail "trak-capture --frames 20-24"; }
[ -f t.trace ] || fail "no t.trace"
# No display from here on: the replay is offscreen.
rc=0
env -u DISPLAY "$REPLAY" t.trace --compare --json > replay.json 2> replay.err || rc=$?
# Exit 3: frames differ, said below.
[ $rc = 0 ] || [ $rc = 3 ] || { cat replay.err replay.json >&2; fail "trak-replay --compare of the trimmed capture"; }
[ "$(jq -c '[.frames, .timed_frames]' replay.json)" = '[24,5]' ] ||
  fail "frames 20-24 not replayed as such: $(jq -c '[.frames, .timed_frames]' replay.json)"
checks=$(jq -c '[.checks[] | [.frame, .max_difference, .passed]]' replay.json)
[ "$checks" = '[[20,0,true],[22,0,true],[24,0,true]]' ] ||
  fail "frames differ: $(jq -c .checks replay.json)"

# The objects, by what made them, and the state records of each, before the
# range's first call of its own (an acquire).
apitrace dump t.trace > dump.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump"; }
grep -q '^// trak.first_frame = "20"$' dump.txt || fail "the header does not say frame 20 comes first"
made() {
  h=$(grep -E "^[0-9]+ vkCreate(Image|Buffer)\(.*$1" dump.txt | sed -E 's/.*p(Image|Buffer) = &(0x[0-9a-f]+)\).*/\2/')
  [ "$(echo "$h" | wc -w)" = 1 ] || fail "not one object made with $1: $h"
  echo "$h"
}
# (fail in $(...) ends only the subshell: each assignment exits too.)
A=$(made 'arrayLayers = 16,') || exit 1
R=$(made 'COLOR_ATTACHMENT_BIT') || exit 1
D=$(made 'D32_SFLOAT_S8_UINT') || exit 1
B=$(made 'size = 1024,') || exit 1
S=$(made 'size = 2048, usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,') || exit 1
S2=$(made 'STORAGE_BUFFER_BIT') || exit 1
acquire=$(grep -m1 -E '^[0-9]+ vkAcquireNextImageKHR\(' dump.txt | cut -d' ' -f1)
# state NAME PATTERN: the number of the one call NAME whose arguments start
# with PATTERN; it comes before the acquire.
state() {
  n=$(grep -E "^[0-9]+ $1\(device = 0x[0-9a-f]+, $2" dump.txt | cut -d' ' -f1)
  [ "$(echo "$n" | wc -w)" = 1 ] || fail "not one $1 for $2: $n"
  [ "$n" -lt "$acquire" ] || fail "$1 for $2 is call $n, after frame 20's first call ($acquire)"
  echo "$n"
}
src=VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
a=$(state trakImageContents "image = $A, layout = $src, parts = \{\{aspectMask = 1,") || exit 1
r=$(state trakImageContents "image = $R, layout = $src, parts = &\{aspectMask = 1,") || exit 1
d=$(state trakImageContents "image = $D, layout = $src, parts = \{\{aspectMask = 2,") || exit 1
b=$(state trakUpdateBuffer "object = $B, runs = &\{offset = 0, data = blob\(1024\)\}") || exit 1
s=$(state trakUpdateBuffer "object = $S, runs = &\{offset = 0, data = blob\(2048\)\}") || exit 1
s2=$(state trakCopyBuffer "source = $S, object = $S2, regions = &\{srcOffset = 0, dstOffset = 0, size = 2048\}") ||
  exit 1
[ "$s2" -gt "$s" ] || fail "S2's copy (call $s2) before S's bytes (call $s)"
[ "$(grep -c -E "^$a .*arrayLayer = 15, width = 32, height = 32, depth = 1, data = blob\(4096\)" dump.txt)" = 1 ] ||
  fail "A's contents lack its last layer"
stencil='aspectMask = 4, mipLevel = 0, arrayLayer = 0, width = 128, height = 128, depth = 1, data = blob\(16384\)'
grep -q -E "^$d .*$stencil" dump.txt || fail "D's contents lack its stencil"

# One byte of each object's restored contents changed (texel 0,0 of A's
# layer 0, of R, of D's depth and of its stencil, byte 0 of B and of S: none
# written again in frames 20-24): every snapshot frame differs.
"$CONVERT" t.trace --to trace --codec gzip -o t.gz.trace || fail "trak-convert --codec gzip"
ln -s t.snapshots bad.snapshots
for edit in "$a parts[0].data@0" "$r parts[0].data@0" "$d parts[0].data@0" "$d parts[1].data@0" \
  "$b runs[0].data@0" "$s runs[0].data@0"; do
  set -- $edit
  python3 "$SRC/edit_trace.py" t.gz.trace bad.trace "$1" "$2" 200 || fail "edit_trace $edit"
  rc=0
  env -u DISPLAY "$REPLAY" bad.trace --compare --json > bad.json 2> bad.err || rc=$?
  [ $rc = 3 ] || { cat bad.err >&2; fail "call $edit changed: exit $rc, not 3 (frames differ)"; }
  jq -e '[.checks[] | .max_difference > 0] | all' bad.json > /dev/null ||
    fail "call $edit changed, yet the frames are the same: $(jq -c .checks bad.json)"
done

# Damaged texel records are refused before the driver sees them (exit 1,
# the call named), never copied out of bounds.
for edit in "$a parts[0].width 33 an extent other than the mip level's" \
  "$a parts[0].arrayLayer 16 a mip level or layer past the image's" \
  "$d parts[1].aspectMask 1 an aspect the image's format does not have"; do
  set -- $edit
  call=$1 path=$2 value=$3
  shift 3
  python3 "$SRC/edit_trace.py" t.gz.trace bad.trace "$call" "$path" "$value" || fail "edit_trace $edit"
  rc=0
  env -u DISPLAY "$REPLAY" bad.trace > /dev/null 2> bad.err || rc=$?
  [ $rc = 1 ] && grep -q "call $call .*$*" bad.err || { cat bad.err >&2; fail "$path = $value: exit $rc"; }
done

# The whole run, with the same snapshots: the same pictures, in a larger file.
xrun "$CAPTURE" --trace whole.trace --snapshot 20,22,24 -- "$TRIM_APP" 30 > whole.out 2> whole.err ||
  { cat whole.err >&2; fail "trak-capture of the whole run"; }
for f in 20 22 24; do
  cmp -s "t.snapshots/frame-0000$f.png" "whole.snapshots/frame-0000$f.png" ||
    fail "frame $f: the whole run's snapshot differs"
done
# Replayed, the whole run gives them too: S2, bound to S's memory after the
# host wrote it, has those bytes (owed them at its first submit, by a copy
# from S).
apitrace dump whole.trace > whole.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump of the whole run"; }
grep -q -E '^[0-9]+ trakCopyBuffer\(device = 0x[0-9a-f]+, source = 0x[0-9a-f]+, object = 0x[0-9a-f]+, regions = &\{srcOffset = 0, dstOffset = 0, size = 2048\}\)' \
  whole.txt || fail "S2 is not given S's bytes by a copy in the whole run"
env -u DISPLAY "$REPLAY" whole.trace --compare --json > whole.json 2> whole.err ||
  { cat whole.err whole.json >&2; fail "trak-replay --compare of the whole run"; }
[ "$(jq -c '[.checks[] | [.frame, .max_difference]]' whole.json)" = '[[20,0],[22,0],[24,0]]' ] ||
  fail "the whole run's frames differ: $(jq -c .checks whole.json)"
trimmed=$(wc -c < t.trace) whole=$(wc -c < whole.trace)
[ "$trimmed" -lt "$whole" ] || fail "the trimmed capture ($trimmed bytes) is not smaller than the whole one ($whole)"
exit 0
