# needs: vulkan device
# vkcube's pipeline alone, by hash: its layout, render pass and two modules are made from the archive first.
"$REPLAY" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --pipeline-hash e3b925b0c1c00de1 --jobs 1 --no-progress --json |
  jq -c '[.graphics.total, .graphics.ok, .failed]'
