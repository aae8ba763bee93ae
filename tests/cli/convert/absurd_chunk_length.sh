printf '\141\164\377\377\377\177' >big.trace
"$CONVERT" big.trace
