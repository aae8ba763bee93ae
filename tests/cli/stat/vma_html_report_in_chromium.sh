# The report must load in a real browser: the script runs (it marks the body
# ready), there is one plotted line per recorded heap, and a screenshot renders.
command -v chromium >/dev/null || { echo "chromium missing (apt-get install chromium)"; exit 1; }
"$STAT" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" --html report.html >/dev/null
set -- --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$PWD/profile"
timeout 120 chromium "$@" --dump-dom "file://$PWD/report.html" 2>/dev/null >dom.html
grep -c 'data-report="ready"' dom.html
grep -o '<polyline class="heap"' dom.html | wc -l
timeout 120 chromium "$@" --window-size=1000,800 --screenshot="$PWD/shot.png" "file://$PWD/report.html" >/dev/null 2>&1
[ "$(stat -c %s shot.png)" -gt 10000 ] && echo screenshot-ok
