# The oracle: keep and skip archives prune as fossilize-prune's --whitelist and --blacklist do (the same
# entries come out), on a capture and on 1500 compute pipelines.
fz="$DATA/../../../shared/tools/fossilize/bin/fossilize-prune"
[ -x "$fz" ] || { echo "needs Fossilize's fossilize-prune (../shared/tools/fossilize) as the oracle" >&2; exit 77; }
synth="$DATA/foz/synth_compute.foz"
cube="$DATA/foz/vkcube.72991ed96a80f842.1.foz"
prune() {  # NAME TAG keep|skip LIST INPUT: trak-merge --keep-list or --skip-list, fossilize-prune's list of the same
  [ "$3" = keep ] && list=whitelist || list=blacklist
  "$MERGE" -q -o "t-$2.foz" --"$3"-list "$4" "$5"
  "$fz" --input-db "$5" --output-db "f-$2.foz" --"$list" "$4" >/dev/null 2>&1
  "$STAT" "t-$2.foz" --list >trak.txt && "$STAT" "f-$2.foz" --list >fz.txt
  cmp -s trak.txt fz.txt && echo "$1: same $(wc -l <trak.txt) entries" || { echo "$1: differ"; diff trak.txt fz.txt | head; }
}
"$REPLAY" "$synth" --null-device --range 100-399 --skip-done done.foz --no-progress >/dev/null
prune "blacklist of 300 done pipelines" black skip done.foz "$synth"
"$MERGE" -q -o hot.foz --filter-compute 001db2ccd3114757 --filter-compute 0042902a664a5875 "$synth"
prune "whitelist of a pruned archive" white keep hot.foz "$synth"
prune "whitelist naming none of vkcube's" none keep done.foz "$cube"
prune "blacklist naming none of vkcube's" cube skip done.foz "$cube"
head -c 16 "$synth" >empty.foz
prune "empty whitelist" empty keep empty.foz "$synth"
# A blacklist of one pipeline with all it needs: its layout too, which every pipeline needs, so none stays;
# nor the application info and links it names.
prune "blacklist of everything one pipeline needs" all skip hot.foz "$synth"
