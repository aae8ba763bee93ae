# --snapshot-dir naming the capture's own snapshot folder would write the
# replay's frames over the references: a usage error.
cp "$DATA/capture/threads1.trace" x.trace
mkdir x.snapshots
"$REPLAY" x.trace --compare --snapshot 1 --snapshot-dir x.snapshots/
