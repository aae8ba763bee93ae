# An output written through a temporary file keeps the permissions of the file it replaces.
echo old >out.csv
chmod 600 out.csv
"$CONVERT" "$DATA/vma/vma_doc_example_1.8_final.csv" --to csv -o out.csv
stat -c %a out.csv
rm out.csv
umask 022
"$CONVERT" "$DATA/vma/vma_doc_example_1.8_final.csv" --to csv -o out.csv
stat -c %a out.csv
