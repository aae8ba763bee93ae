"$GPA"
