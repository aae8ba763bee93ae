# A counter trak-gpa does not know stops it before the application starts.
"$GPA" profile --counters vs_invocations,nosuch -- sh -c 'echo ran'
