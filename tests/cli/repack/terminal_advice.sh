# Binary output to a terminal is refused with advice that fits trak-repack,
# whose output is a positional argument (it has no -o). script(1) gives it
# a terminal.
script -qec "'$REPACK' '$DATA/gears.trace' -; echo \"exit \$?\"" typescript >/dev/null
tr -d '\r' <typescript | grep -a -e 'trak-repack:' -e '^exit'
