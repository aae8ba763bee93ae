"$CAPTURE" --help | grep -E '^(Usage|  --foz|  --trace|  --snapshot|  --frames|  --trigger|  trak-capture --foz /tmp|  trak-capture --trace cube)'
