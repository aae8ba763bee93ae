# Six threads at once on one device (tests/capture/apps/trace_threads.cpp):
# every call is on the trace thread of the application thread that made it,
# and every byte the threads wrote through their maps is in an update.
. "$SRC/lib.sh"
need_apitrace
"$CAPTURE" --trace t.trace -- "$APPS/capture_trace_threads" --threads 6 --rounds 5 > t.out 2> t.err ||
  { cat t.err >&2; fail "trak-capture --trace capture_trace_threads"; }
apitrace dump t.trace > dump.txt 2> dump.err || { cat dump.err >&2; fail "apitrace dump"; }
jsonl t.trace
python3 - trace.jsonl <<'PY' || fail "calls are not on their threads"
import collections, json, sys
calls = [c for c in map(json.loads, open(sys.argv[1])) if c["type"] == "call"]
by_thread = collections.defaultdict(list)
for c in calls:
    by_thread[c["thread"]].append(c)
sizes = set()
for t, cs in by_thread.items():
    made = [c for c in cs if c["name"] == "vkCreateBuffer"]
    if not made:
        continue
    size = {c["args"]["pCreateInfo"][0]["members"]["size"] for c in made}
    assert len(made) == 5 and len(size) == 1, f"thread {t}: {len(made)} buffers of sizes {size}"
    size = size.pop()
    sizes.add(size)
    for name in ("vkQueueSubmit", "vkMapMemory", "vkUnmapMemory", "vkDestroyBuffer", "vkCreateCommandPool"):
        n = sum(c["name"] == name for c in cs)
        want = 1 if name == "vkCreateCommandPool" else 5
        assert n == want, f"thread {t}: {n} {name}"
assert sizes == {4096 * (t + 1) for t in range(6)}, f"buffer sizes {sorted(sizes)}"
# Every byte each thread wrote is recorded exactly once (memory starts as
# zeros, the threads write 0x10 + t), whichever thread's submit came first.
updates = [c for c in calls if c["name"] == "trakUpdateBuffer"]
written = sum(r["members"]["data"]["blob"] for u in updates for r in u["args"]["runs"])
assert written == 5 * sum(sizes), f"{written} bytes of updates for {5 * sum(sizes)} bytes written"
PY
exit 0
