# -T/--threads: the same figures however many threads count them (from 6 on
# the live allocations are split between the threads too); 0 is a usage error.
f="$DATA/vma/inexor_vma_replays_rst_1.8.csv"
"$STAT" --json "$f" >one.json
for t in 1 2 6 9; do
  "$STAT" --json -T "$t" "$f" | cmp -s - one.json && echo "$t threads: same" || echo "$t threads: DIFFERENT"
done
"$STAT" -T 0 "$f" >/dev/null 2>&1
echo "-T 0: exit $?"
