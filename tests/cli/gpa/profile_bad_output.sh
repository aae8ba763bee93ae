"$GPA" profile -o x.txt -- true
