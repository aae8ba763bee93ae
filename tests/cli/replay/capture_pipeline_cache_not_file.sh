# needs: vulkan device
# --pipeline-cache that is not a regular file (a device that never ends, a
# folder) or that cannot be saved: one line before the replay, exit 1.
mkdir folder
for pc in /dev/zero folder /nonexistent/pc.bin; do
  timeout 20 "$REPLAY" "$DATA/capture/threads1.trace" --pipeline-cache "$pc" > /dev/null
  echo "exit $?"
done
