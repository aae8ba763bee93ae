# needs: vulkan device
# vkcube's pipeline created three times on the device.
"$REPLAY" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --loop 3 --jobs 1 --no-progress --json |
  jq -c '[.loop, .graphics.total, .graphics.ok]'
