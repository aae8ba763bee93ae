# from_chars reads "inf" and "nan", which no recorder writes and no JSON
# number can hold: a bad time, and --json says where the figures stop.
for t in inf nan 1e400; do
  printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,%s,0,vmaDestroyAllocator\n' "$t" >r.csv
  "$STAT" --json r.csv >out.json
  echo "exit $?"
  jq -r '.calls, .error' out.json
done
