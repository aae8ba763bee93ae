# --blobs writes each blob into blob_call<NO>[_<k>].bin in the current folder
# and prints its name, as `apitrace dump --blobs` does: the same text (plain
# and coloured) and the same files.
mkdir a b
(cd a && apitrace dump --blobs "$DATA/es2gears.trace" >dump.txt && apitrace dump --blobs --color=always "$DATA/texture.trace" >color.txt)
(cd b && "$CONVERT" --blobs "$DATA/es2gears.trace" >dump.txt && "$CONVERT" --blobs --color "$DATA/texture.trace" >color.txt)
ls b
for f in a/*; do cmp "$f" "b/${f#a/}" && echo "${f#a/}: same"; done
grep -c 'blob("blob_call' b/dump.txt
# Blobs belong to the text: JSON Lines and traces carry them inline.
"$CONVERT" --blobs --to jsonl "$DATA/es2gears.trace" >/dev/null
echo "--to jsonl: exit $?"
# A blob that cannot be written (in /proc, even for root) stops the dump with one line and exit 1; the
# calls before it are kept whole, the half-printed one is not.
(cd /proc && "$CONVERT" --blobs "$DATA/es2gears.trace") >partial.txt
echo "unwritable blob: exit $?"
tail -n 1 partial.txt
