# needs: vulkan device
# Device 0's name and first heap, as vulkaninfo (vulkan-tools) reports them.
name=$(vulkaninfo --summary 2>/dev/null | sed -n 's/^[[:space:]]*deviceName *= //p' | head -n 1)
heap=$(vulkaninfo 2>/dev/null | sed -n '/memoryHeaps\[0\]:/,/size/s/^[[:space:]]*size *= *\([0-9]*\).*/\1/p' | head -n 1)
"$REPLAY" --list-devices --json | jq -r '.devices[0] | .name, .heaps[0].size' > listed
"$REPLAY" --json "$DATA/vma/vma_doc_example_1.2_b3ea2c6.csv" | jq -r '.device.name, .heaps[0].size' > replayed
printf '%s\n%s\n' "$name" "$heap" > expected
cmp -s expected listed && cmp -s expected replayed && echo same || { echo differ; cat expected listed replayed; }
