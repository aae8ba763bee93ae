# No Vulkan driver: the same line as the .foz and VMA replays.
VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json "$REPLAY" "$DATA/capture/threads1.trace" > /dev/null
