#!/bin/sh
# fleet/k8s_indexed_job: README.md's Kubernetes manifest is an indexed Job
# whose TRAK_SHARD_COUNT is its completions; its container's command then
# runs once per index with the environment Kubernetes gives each pod
# (JOB_COMPLETION_INDEX and the manifest's env), the shared volume being this
# test's folder; then the README's merge step. No cluster runs here: what
# Kubernetes itself does with the manifest is not tested.
name=fleet/k8s_indexed_job
. "$(dirname "$0")/lib.sh"

need python3 python3 "reads the manifest"
python3 -c 'import yaml' 2>/dev/null || {
  echo "$name: skipped: python3 cannot import yaml: install Debian's python3-yaml (reads the manifest)" >&2
  exit 77
}
need jq jq "reads trak-replay --json"
setup_work
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
readme_block k8s-job >warm.yaml
# One line per pod: the index, the env as NAME=VALUE words, then the command.
python3 - warm.yaml >pods.txt <<'EOP' || fail "the manifest is not an indexed Job trak-replay can run"
import shlex, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
spec = job["spec"]
assert job["kind"] == "Job" and job["apiVersion"] == "batch/v1", "not a batch/v1 Job"
assert spec["completionMode"] == "Indexed", "not an indexed Job"
[c] = spec["template"]["spec"]["containers"]
env = {e["name"]: e["value"] for e in c.get("env", [])}
assert int(env["TRAK_SHARD_COUNT"]) == spec["completions"], "TRAK_SHARD_COUNT is not the completions"
assert c["command"] == ["sh", "-c"] and len(c["args"]) == 1, "the command is not sh -c SCRIPT"
mount = c["volumeMounts"][0]["mountPath"]
for i in range(spec["completions"]):
    words = [f"JOB_COMPLETION_INDEX={i}"] + [f"{k}={v}" for k, v in env.items()]
    print(" ".join(shlex.quote(w) for w in words), "sh -c", shlex.quote(c["args"][0].replace(mount + "/", "")))
EOP
n=$(wc -l <pods.txt)
[ "$n" -gt 1 ] || fail "the Job has $n completions"
while read -r pod; do
  eval "env $pod" </dev/null >>pods.out 2>>pods.err || fail "a pod failed: $pod: $(tail -n 3 pods.err)"
done <pods.txt
readme_block k8s-merge | sed -n 's|^cd /data && ||p' >merge.sh
[ -s merge.sh ] || fail "README.md's fleet:k8s-merge block has no 'cd /data && ' merge line"
sh merge.sh >merge.out || fail "the merge step failed"
check_parts "$n"
