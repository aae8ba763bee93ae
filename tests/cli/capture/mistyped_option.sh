# A mistyped option is a usage error naming it, not the command to run.
"$CAPTURE" --trace x.trace --fames 1 -- true
