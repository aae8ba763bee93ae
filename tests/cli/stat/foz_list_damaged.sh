# A torn last entry is left out with a warning (exit 0), as Fossilize drops it. A corrupt size field
# (one flipped byte: the third entry claims 3.9 GB) lists the entries before and behind it, then fails
# naming both offsets (exit 1).
"$STAT" "$DATA/foz/edge/truncated_payload.foz" --list >torn.txt
echo "exit $?, $(wc -l <torn.txt) entries"
python3 - "$DATA/foz/vkcube.72991ed96a80f842.1.foz" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[347 + 43] = 0xe8
open('bad.foz', 'wb').write(d)
PY
"$STAT" bad.foz --list >bad.txt
echo "exit $?, $(wc -l <bad.txt) entries"
"$STAT" bad.foz --list --json 2>/dev/null | jq -c '[(.entries | length), .error]'
