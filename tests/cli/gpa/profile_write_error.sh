# A write that fails names the file and why, after the application ran.
"$GPA" profile --html /dev/full -- sh -c 'echo ran'
