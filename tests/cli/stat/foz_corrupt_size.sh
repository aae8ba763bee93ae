# One flipped byte in an entry's size field makes the entry claim 3.9 GB.
# A torn write leaves no whole entry behind the tear, so this is corruption:
# every tool says where (exit 1) instead of reading the rest as a torn tail,
# the entries behind it are read on (14 of 15: the corrupt one is lost), and
# no output silently loses entries.
python3 - "$DATA/foz/vkcube.72991ed96a80f842.1.foz" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[347 + 43] = 0xe8  # the third entry's stored size, its high byte
open('bad.foz', 'wb').write(d)
PY
"$STAT" bad.foz --json >s.json; echo "stat: exit $?, $(jq -c '[.entries, .error != null]' s.json)"
"$STAT" - <bad.foz --json >p.json; echo "stat from a pipe: exit $?, $(jq -c '[.entries, .error != null]' p.json)"
"$REPACK" bad.foz out.foz; echo "repack: exit $?, $(ls out.foz 2>/dev/null || echo no out.foz)"
"$STAT" out.foz.partial --json | jq -c '.entries'
"$MERGE" -o m.foz bad.foz; echo "merge: exit $?, $(ls m.foz 2>/dev/null || echo no m.foz)"
