# User data in a single-byte encoding (here Latin-1 "caf\351") still makes
# valid JSON: stray bytes read as Latin-1.
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaCreateBuffer,0,1000,1,0,0,1,0,0,0,0000000000000000,000000000000A000,caf\351 \001\n' >r.csv
"$STAT" --json r.csv | python3 -c 'import json, sys; print(ascii(json.load(sys.stdin)["leaks"][0]["user_data"]))'
"$CONVERT" r.csv --to jsonl | python3 -c 'import json, sys; print(ascii([json.loads(l).get("args", {}).get("allocationCreateInfo.pUserData") for l in sys.stdin][-1]))'
