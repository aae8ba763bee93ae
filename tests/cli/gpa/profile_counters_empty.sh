"$GPA" profile --counters '' -- sh -c 'echo ran'
