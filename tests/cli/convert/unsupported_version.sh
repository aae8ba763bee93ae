printf '\141\164\003\000\000\000\001\000\007' >v7.trace
"$CONVERT" v7.trace
