# needs: vulkan device
"$GPA" info --device no-such-gpu
