# An output that cannot be written is found before the application runs.
"$GPA" profile -o nowhere/p.json -- sh -c 'echo ran'
