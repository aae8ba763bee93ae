# needs: vulkan device
# --pipeline-cache naming the capture itself: refused before the replay, the
# capture kept whole (a file that is not a pipeline cache is never replaced).
cp "$DATA/capture/threads1.trace" x.trace
"$REPLAY" x.trace --pipeline-cache x.trace > /dev/null
echo "exit $?"
cmp -s x.trace "$DATA/capture/threads1.trace" && echo "the capture is kept"
