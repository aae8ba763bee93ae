"$MERGE" -o - "$DATA/foz/vkcube.72991ed96a80f842.1.foz" 2>report.txt | cmp - "$DATA/foz/vkcube.72991ed96a80f842.1.foz" && echo identical
grep -c '^output ' report.txt
