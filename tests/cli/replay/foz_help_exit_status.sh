# The exit statuses a batch system acts on are documented in --help.
"$REPLAY" --help | sed -n '/^Exit status for .foz/,/^$/p'
