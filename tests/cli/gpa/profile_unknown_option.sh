# A mistyped option is not run as the command.
"$GPA" profile --bogus -- sh -c 'echo ran'
