# needs: vulkan device
"$GPA" info | sed -n '2,4p;8,10p'
