# A program without Vulkan: its status, and a word on why there is no profile.
"$GPA" profile -- sh -c 'exit 3'
