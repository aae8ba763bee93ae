# Fossilize's layer stacked under trak's on the same runs: both see the same
# calls, so the archives must hold the same entries with the same payloads.
# Fossilize's tools read trak's archives.
. "$SRC/lib.sh"
need_fossilize
with_both_layers plain "$STORM" --threads 4 --graphics 200 --compute 50
with_both_layers gpl "$STORM" --gpl --graphics 100 --compute 10
with_both_layers rendering "$STORM" --dynamic-rendering --gpl --inline-modules --graphics 100 --compute 10
with_both_layers devices "$STORM" --devices 2 --concurrent --graphics 100
with_both_layers instances "$STORM" --instances 2 --concurrent --graphics 100
with_both_layers same "$STORM" --same
if command -v xvfb-run >/dev/null && command -v glmark2 >/dev/null && command -v vkcube >/dev/null; then
  with_both_layers vkcube xrun vkcube --c 10
  set -- env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 glmark2 -s 320x240 -b build:nframes=5 \
    -b texture:nframes=5 -b shading:shading=cel:nframes=5 -b bump:bump-render=normals:nframes=5 -b pulsar:nframes=5 \
    -b desktop:nframes=5 -b terrain:nframes=3 -b refract:nframes=3 -b jellyfish:nframes=3
  app_errors xrun "$@"
  with_both_layers zink xrun "$@"
else
  skip "needs xvfb-run, vkcube and glmark2 for the application runs"
fi
for f in trak-*.foz; do
  "$FOSSILIZE/bin/fossilize-list" "$f" > list.out 2>&1 || { cat list.out >&2; fail "fossilize-list $f"; }
done
"$FOSSILIZE/bin/fossilize-replay" trak-gpl.*.foz > fz-replay.out 2>&1 || { cat fz-replay.out >&2; fail "fossilize-replay"; }
"$FOSSILIZE/bin/fossilize-replay" trak-zink.*.foz > fz-replay.out 2>&1 || { cat fz-replay.out >&2; fail "fossilize-replay"; }
