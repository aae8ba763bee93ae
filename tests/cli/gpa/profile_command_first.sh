# Without --, the command starts at the first word that is not an option; its own
# options and -- are its own. The status is the application's.
"$GPA" profile -o p.json sh -c 'echo ran "$@"; exit 4' sh -x -- y
rc=$?
jq -c '{status, frames, devices}' p.json >&2
exit $rc
