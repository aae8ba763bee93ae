"$GPA" profile -- no-such-program-here
