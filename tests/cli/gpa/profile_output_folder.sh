mkdir page
"$GPA" profile --html page -- sh -c 'echo ran'
