# From a pipe, the same list as from the file.
cube="$DATA/foz/vkcube.72991ed96a80f842.1.foz"
cat "$cube" | "$STAT" - --list >pipe.txt
"$STAT" "$cube" --list | cmp - pipe.txt && echo same
