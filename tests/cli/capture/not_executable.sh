printf 'echo hi\n' > script
"$CAPTURE" --foz x -- ./script
