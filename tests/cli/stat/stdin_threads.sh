"$STAT" --json - <"$DATA/threads.br.trace" | jq -c '.threads.count, .container'
