# Nothing made a Vulkan device: no trace, and the report says so.
"$CAPTURE" --trace t.trace -- true
test ! -e t.trace
