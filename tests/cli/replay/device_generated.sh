# needs: vulkan device
# A generated 1.8 recording: creations counted with awk (non-null output pointers) against the replay's.
rec="$DATA/vma/generated_1.8_1000.csv"
want=$(awk -F, '
  $4 == "vmaCreateBuffer" && $15 !~ /^0+$/ { b++ }
  $4 == "vmaCreateImage" && $24 !~ /^0+$/ { i++ }
  ($4 == "vmaAllocateMemory" && $14 !~ /^0+$/) || ($4 ~ /^vmaAllocateMemoryFor/ && $16 !~ /^0+$/) { m++ }
  $4 == "vmaAllocateMemoryPages" { p += split($14, x, " ") }
  $4 == "vmaCreateLostAllocation" { l++ }
  $4 == "vmaCreatePool" { o++ }
  END { printf "[%d,%d,%d,%d,%d,%d]\n", b, i, m, p, l, o }' "$rec")
got=$("$REPLAY" --json "$rec" 2>/dev/null | jq -c '[.buffers, .images, .memory_allocations, .pages, .lost_allocations, .pools]')
[ "$got" = "$want" ] && echo same || echo "replay $got, awk $want"
