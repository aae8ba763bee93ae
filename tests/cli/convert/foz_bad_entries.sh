# Entries the object model cannot take are errors naming the entry and the
# JSON path, never dropped; what came before is kept.
"$CONVERT" "$DATA/foz/edge/tiny_one_sampler.foz" -o out.json
echo "exit $?"
cat out.json.partial; echo
mkdir d
cp "$DATA"/foz/vkcube_json/* d/
# An sType Fossilize never records.
sed 's/"maxLod":0.0/"maxLod":0.0,"pNext":[{"sType":1000999000,"x":1}]/' "$DATA/foz/vkcube_json/01.27ceff9929c09a63.json" >d/01.27ceff9929c09a63.json
"$CONVERT" d --to foz -o x.foz
echo "exit $?"
cp "$DATA/foz/vkcube_json/01.27ceff9929c09a63.json" d/
# A varint SPIR-V stream cut short by one byte.
f=d/04.1778d8b90d391b54.json
head -c -1 "$DATA/foz/vkcube_json/04.1778d8b90d391b54.json" >$f
"$CONVERT" d --to foz -o x.foz
echo "exit $?"
cp "$DATA/foz/vkcube_json/04.1778d8b90d391b54.json" d/
# A sampler edited by hand no longer hashes to its name.
sed 's/"maxLod":0.0/"maxLod":999.0/' "$DATA/foz/vkcube_json/01.27ceff9929c09a63.json" >d/01.27ceff9929c09a63.json
"$CONVERT" d --to foz -o x.foz && echo "unchecked: accepted"
"$CONVERT" d --to foz -o x.foz --check-hashes
echo "exit $?"
cp "$DATA/foz/vkcube_json/01.27ceff9929c09a63.json" d/
# A file named for another object than the one it holds.
mv d/03.2ab80332838222bd.json d/03.2ab80332838222be.json
"$CONVERT" d --to foz -o x.foz
echo "exit $?"
