# Data that cannot reach stdout is an error: one line, exit 1 (a full disk,
# a closed descriptor), for reports, --json and --help alike.
"$STAT" "$DATA/gears.trace" >/dev/full; echo "exit $?"
"$STAT" "$DATA/gears.trace" --json >/dev/full; echo "exit $?"
"$STAT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" >/dev/full; echo "exit $?"
"$STAT" "$DATA/vma/vma_doc_example_1.8_final.csv" >/dev/full; echo "exit $?"
"$STAT" --help >/dev/full; echo "exit $?"
"$STAT" "$DATA/gears.trace" >&-; echo "exit $?"
"$REPLAY" "$DATA/vma/vma_doc_example_1.8_final.csv" --simulate >/dev/full; echo "exit $?"
"$MERGE" -o m.foz "$DATA/foz/edge/tiny_one_sampler.foz" >/dev/full; echo "exit $?"
