# Two bytes without a trace header (gzip-compressed, so the container is
# whole) are not "a trace of another API": the trace reader says what it
# says of them in every tool.
printf 'ab' | gzip > two.trace
"$REPLAY" two.trace
