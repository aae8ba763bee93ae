# On a terminal, long work shows one progress line on stderr, and clears it
# when it ends: the next output starts on a clean line (it used to be left
# as 'trak-stat: 215.7 MBnext'). script(1) gives the tool a terminal; the
# recording comes through a FIFO that stalls for a second, so the line shows.
"$VMA_GEN" 500000 >g.csv 2>/dev/null
mkfifo slow
(head -c 3000000 g.csv; sleep 1.5; tail -c +3000001 g.csv) >slow &
feeder=$!
script -qec "'$STAT' slow >/dev/null; echo next" typescript >/dev/null
kill $feeder 2>/dev/null
wait
grep -qa 'trak-stat: [0-9.]* MB' typescript && echo "progress shown"
tr -d '\r' <typescript | grep -qa 'MBnext' && echo "left behind" || echo "cleared"
grep -qa "$(printf '\033')\[Knext" typescript && echo "next on a clean line"
