# A million values nested in one another (a hostile or corrupt file) stop
# every reader with one line, well before the stack runs out; the deepest
# real nesting (vulkaninfo's pNext chains, tests/data/capture) is ~220 levels.
# version 6, semantic 6, no properties; enter: thread 0, function 4 "f" with
# one argument "a"; argument 0: one-element arrays, one in another.
{ printf '\006\006\000\000\000\004\001f\001\001a\001\000'; yes "$(printf '\013\001')" | tr -d '\n' | head -c 2000000; } |
  gzip >deep.trace
"$CONVERT" deep.trace
echo "text: exit $?"
"$CONVERT" deep.trace --to jsonl
echo "jsonl: exit $?"
"$STAT" deep.trace >/dev/null
echo "stat: exit $?"
"$REPACK" deep.trace out.trace --verify -q
echo "repack --verify: exit $?"
