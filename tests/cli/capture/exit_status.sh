# The application's status is trak-capture's; its stdout stays its own.
"$CAPTURE" --foz x -- sh -c 'echo from the program; exit 7'
