# The report must load in a real browser and read as a report: the script runs
# (it marks the body ready), the figures are tables, flags are names, the plot
# has titled axes with ticks, a legend off the plotted area, a time axis that
# ends at the summary's duration and a readout under the pointer; and a
# screenshot renders.
command -v chromium >/dev/null || { echo "chromium missing (apt-get install chromium)"; exit 1; }
"$STAT" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" --html report.html >/dev/null
set -- --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$PWD/profile" --window-size=1200,1000
timeout 120 chromium "$@" --dump-dom "file://$PWD/report.html" 2>/dev/null >dom.html
grep -c 'data-report="ready"' dom.html
grep -o '<polyline class="heap"' dom.html | wc -l
# Each table: its id and headers.
sed -n 's/.*<table id="\([^"]*\)"><thead><tr>\(.*\)<\/tr><\/thead>.*/\1: \2/p' dom.html |
  sed 's/<th[^>]*>//g; s/<\/th>/ | /g; s/ | $//; s/ *$//'
grep -c '<tbody>' dom.html
# The heaps' rows, cells between bars: flags by name.
sed -n '/<table id="heaps">/,/<\/tbody>/p' dom.html | grep '^<tr><td' | sed 's/<\/td><td[^>]*>/ | /g; s/<[^>]*>//g'
sed -n '/<table id="memory-types">/,/<\/tbody>/p' dom.html | grep '^<tr><td' | sed 's/<\/td><td[^>]*>/ | /g; s/<[^>]*>//g' |
  tail -n 3
echo "axis titles: $(grep -o 'class="axis-title"[^>]*>[^<]*' dom.html | sed 's/.*>//' | paste -sd ',')"
echo "x ticks: $(grep -o 'class="x-tick"[^>]*>[^<]*' dom.html | sed 's/.*>//' | paste -sd ' ')"
echo "y ticks: $(grep -o 'class="y-tick"[^>]*>[^<]*' dom.html | sed 's/.*>//' | paste -sd ' ')"
end=$(grep -o 'class="x-end"[^>]*>[^<]*' dom.html | sed 's/.*>//')
duration=$(grep -o 'id="duration">[^<]*' dom.html | sed 's/.*>//')
[ -n "$end" ] && [ "$end" = "$duration" ] && echo "time axis ends at the summary's duration: $end"
# The legend is HTML beside the plot: none of it inside the <svg>.
echo "legends: $(grep -c 'data-role="legend"' dom.html), in the svg: $(sed -n '/<svg/,/<\/svg>/p' dom.html | grep -c 'data-role="legend"')"
grep -o '<div id="readout"[^>]*>' dom.html
# The pointer over the time axis's "1.0" tick: the guide shows, and the
# readout lists the time and each heap's bytes then.
sed 's|</body>|<script>var svg=document.getElementById("live-bytes"),tick=[].find.call(\
document.querySelectorAll(".x-tick"),function(e){return e.textContent=="1.0";}).getBoundingClientRect();\
svg.dispatchEvent(new MouseEvent("mousemove",{clientX:(tick.left+tick.right)/2,clientY:tick.top-100,bubbles:true}));\
</script></body>|' report.html >hover.html
timeout 120 chromium "$@" --dump-dom "file://$PWD/hover.html" 2>/dev/null >hover_dom.html
grep -c '<line[^>]*id="guide"[^>]*visibility="visible"' hover_dom.html
grep -o '<div id="readout"[^>]*>.*' hover_dom.html | sed 's/<\/div><div>/\n/g; s/<[^>]*>//g' |
  awk '/^t = / { printf "t = %.1f s\n", $3; next } { print }'
timeout 120 chromium "$@" --screenshot="$PWD/shot.png" "file://$PWD/report.html" >/dev/null 2>&1
[ "$(stat -c %s shot.png)" -gt 10000 ] && echo screenshot-ok
