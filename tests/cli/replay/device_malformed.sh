# needs: vulkan device
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaCreateBuffer,0,abc\n' > bad.csv
"$REPLAY" bad.csv > out
rc=$?
grep -c '^Device: ' out  # the summary of what came before is still printed
exit $rc
