"$MERGE" -o out.foz nope.foz
