# Two outputs that are one file: one would replace the other.
"$GPA" profile -o p.json --html ./p.json -- sh -c 'echo ran'
