"$CAPTURE" --help | grep -E '^(Usage|  --foz|  --trace|  --snapshot|  trak-capture --foz /tmp|  trak-capture --trace cube)'
