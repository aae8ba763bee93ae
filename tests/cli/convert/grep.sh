# --grep keeps the calls whose function name the expression finds a match in,
# without the header lines; --color alone is --color=always. grep.stdout was
# made by apitrace dump 11.1 (--grep='(Begin|End)$'; --grep=Swap
# --color=always --calls=0-400); a bad expression is a usage error.
"$CONVERT" --grep '(Begin|End)$' "$DATA/gears.trace"
"$CONVERT" --grep Swap --color --calls 0-400 "$DATA/gears.trace"
"$CONVERT" --grep '[' "$DATA/gears.trace"
echo "exit $?"
"$CONVERT" --grep vma "$DATA/vma/vma_doc_example_1.8_final.csv"
echo "exit $?"
