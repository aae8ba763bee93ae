# needs: vulkan device
# vulkaninfo captured by trak-capture --trace, with pNext chains of 50 and
# 108 structs: read and replayed to its end (the queries that hold the chains
# are among the calls not replayed: the replay needs none of their answers).
"$REPLAY" "$DATA/capture/vulkaninfo.trace" --json >r.json
echo "exit $?, calls $(jq .calls r.json)"
