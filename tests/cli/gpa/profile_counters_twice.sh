"$GPA" profile --counters ia_vertices,fs_invocations,ia_vertices -- sh -c 'echo ran'
