# The JSON report escapes the command's name (a path may hold quotes and backslashes).
mkdir 'we"ird\dir'
printf '#!/bin/sh\nexit 0\n' > 'we"ird\dir/prog'
chmod +x 'we"ird\dir/prog'
"$CAPTURE" --trace t.trace --json -o r.json -- './we"ird\dir/prog'
jq -c '{command, status, nothing_captured: (.nothing_captured | startswith("no Vulkan instance"))}' r.json
