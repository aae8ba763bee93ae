# stdout is the application's: JSON there would be mixed into its output.
"$GPA" profile -o - -- sh -c 'echo ran'
