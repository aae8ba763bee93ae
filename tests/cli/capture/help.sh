"$CAPTURE" --help | grep -E '^(Usage|  --foz|  trak-capture --foz /tmp)'
