{ head -c 15 "$DATA/foz/vkcube.72991ed96a80f842.1.foz"; printf '\007'; } >x.foz
"$STAT" x.foz
