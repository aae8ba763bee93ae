"$REPACK" nope.trace out.trace
ls
