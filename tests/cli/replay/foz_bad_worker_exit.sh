"$REPLAY" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --worker-exit bogus
