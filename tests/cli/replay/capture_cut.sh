# needs: vulkan device
# A capture cut short, from a pipe: what was whole is replayed, then one line.
head -c 12000 "$DATA/capture/threads1.trace" | "$REPLAY" - > /dev/null
