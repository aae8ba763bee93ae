# The oracle: keep and skip archives prune as fossilize-prune's --whitelist and --blacklist do (the same
# entries come out), on a capture and on 1500 compute pipelines.
fz="$DATA/../../../shared/tools/fossilize/bin/fossilize-prune"
[ -x "$fz" ] || { echo "needs Fossilize's fossilize-prune (../shared/tools/fossilize) as the oracle" >&2; exit 77; }
shared="$DATA/foz"
synth="$shared/synth_compute.foz"
same() {  # NAME TRAK.foz FOSSILIZE.foz
  "$STAT" "$2" --list >trak.txt && "$STAT" "$3" --list >fz.txt
  cmp -s trak.txt fz.txt && echo "$1: same $(wc -l <trak.txt) entries" || { echo "$1: differ"; diff trak.txt fz.txt | head; }
}
"$REPLAY" "$synth" --null-device --range 100-399 --skip-done done.foz --no-progress >/dev/null
"$MERGE" -q -o t-black.foz --skip-list done.foz "$synth"
"$fz" --input-db "$synth" --output-db f-black.foz --blacklist done.foz >/dev/null 2>&1
same "blacklist of 300 done pipelines" t-black.foz f-black.foz
"$MERGE" -q -o hot.foz --filter-compute 001db2ccd3114757 --filter-compute 0042902a664a5875 "$synth"
"$MERGE" -q -o t-white.foz --keep-list hot.foz "$synth"
"$fz" --input-db "$synth" --output-db f-white.foz --whitelist hot.foz >/dev/null 2>&1
same "whitelist of a pruned archive" t-white.foz f-white.foz
cube="$DATA/foz/vkcube.72991ed96a80f842.1.foz"
"$MERGE" -q -o t-none.foz --keep-list done.foz "$cube"
"$fz" --input-db "$cube" --output-db f-none.foz --whitelist done.foz >/dev/null 2>&1
same "whitelist naming none of vkcube's" t-none.foz f-none.foz
"$MERGE" -q -o t-cube.foz --skip-list done.foz "$cube"
"$fz" --input-db "$cube" --output-db f-cube.foz --blacklist done.foz >/dev/null 2>&1
same "blacklist naming none of vkcube's" t-cube.foz f-cube.foz
head -c 16 "$synth" >empty.foz
"$MERGE" -q -o t-empty.foz --keep-list empty.foz "$synth"
"$fz" --input-db "$synth" --output-db f-empty.foz --whitelist empty.foz >/dev/null 2>&1
same "empty whitelist" t-empty.foz f-empty.foz
# A blacklist of one pipeline with all it needs: its layout too, which every pipeline needs, so none stays;
# nor the application info and links it names.
"$MERGE" -q -o t-all.foz --skip-list hot.foz "$synth"
"$fz" --input-db "$synth" --output-db f-all.foz --blacklist hot.foz >/dev/null 2>&1
same "blacklist of everything one pipeline needs" t-all.foz f-all.foz
