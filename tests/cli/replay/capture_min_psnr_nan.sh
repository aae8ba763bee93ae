# --min-psnr nan would make every comparison false: a usage error.
"$REPLAY" "$DATA/capture/threads1.trace" --compare --min-psnr nan
