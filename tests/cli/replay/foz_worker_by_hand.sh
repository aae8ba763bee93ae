# The hidden worker entry, started by hand (no parent on the other end of
# descriptor 3): it exits 1 at once, silently, and never touches Vulkan.
"$REPLAY" --foz-replay-worker 3 3</dev/null
