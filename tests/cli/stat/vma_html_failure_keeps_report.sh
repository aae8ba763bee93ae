# A failed run keeps the report of an earlier one and puts its own beside it.
printf 'Vulkan Memory Allocator,Calls recording\n1,8\nConfig,Begin\nConfig,End\n1,0.0,0,vmaCreateAllocator\n1,0.1,0,vmaNoSuch\n' >bad.csv
echo "an earlier report" >report.html
"$STAT" bad.csv --html report.html >/dev/null
echo "exit $?"
cat report.html
head -c 15 report.html.partial; echo
# '-' writes the page to stdout instead of the table; with --json it is refused.
"$STAT" "$DATA/vma/vma_doc_example_1.8_final.csv" --html - >page.html
echo "exit $?"
head -c 15 page.html; echo
grep -c '^calls \|<th scope="row">calls</th>' page.html
"$STAT" "$DATA/vma/vma_doc_example_1.8_final.csv" --html - --json >/dev/null
echo "exit $?"
