# --keep-going over a damaged file: the first 20 skipped lines are named, all are counted.
{
  printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n1,0.0,0,vmaCreateAllocator\n'
  i=0
  while [ $i -lt 30 ]; do printf '1,0.1,0,vmaNoSuch\n'; i=$((i + 1)); done
} >r.csv
"$STAT" --keep-going --json r.csv 2>err | jq .warnings
grep -c 'line skipped$' err
tail -n 1 err
