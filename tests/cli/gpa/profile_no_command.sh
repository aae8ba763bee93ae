"$GPA" profile -o x.json
