echo hello >x.foz
"$MERGE" -o out.foz x.foz
