# An archive is read by offset: a pipe is not enough.
"$REPLAY" - < "$DATA/foz/vkcube.72991ed96a80f842.1.foz"
