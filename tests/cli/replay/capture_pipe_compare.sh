"$REPLAY" - --compare < "$DATA/capture/threads1.trace"
