#!/usr/bin/env python3
# Alternating runs of two or more commands, for before/after comparisons on a
# machine whose speed drifts (this project's 2-core VM changes speed from one
# second to the next): each round runs every command once, the order flipped
# every other round, and the medians of wall time and of CPU time (user + sys,
# from wait4) are printed per command. stdout of the commands is discarded.
#
# usage: bench/ab_runs.py ROUNDS 'CMD ARGS...' 'CMD ARGS...' ...
#   e.g. bench/ab_runs.py 60 'old/trak-stat rec.csv' 'build-release/tools/stat/trak-stat rec.csv' 'wc -l rec.csv'
import os
import shlex
import shutil
import statistics
import sys
import time


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        print("usage: bench/ab_runs.py ROUNDS 'CMD ARGS...' 'CMD ARGS...' ...", file=sys.stderr)
        return 2
    rounds = int(sys.argv[1])
    cmds = [shlex.split(c) for c in sys.argv[2:]]
    for c in cmds:
        path = shutil.which(c[0])
        if not path:
            print(f"ab_runs: {c[0]}: not found", file=sys.stderr)
            return 2
        c[0] = path
    wall = [[] for _ in cmds]
    cpu = [[] for _ in cmds]
    devnull = os.open(os.devnull, os.O_WRONLY)
    for r in range(rounds):
        order = range(len(cmds)) if r % 2 == 0 else reversed(range(len(cmds)))
        for i in order:
            t0 = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                try:
                    os.dup2(devnull, 1)
                    os.execv(cmds[i][0], cmds[i])
                finally:
                    os._exit(127)  # never back into the loop in the child
            _, status, ru = os.wait4(pid, 0)
            t1 = time.perf_counter()
            if status != 0:
                print(f"ab_runs: {' '.join(cmds[i])}: exit status {status}", file=sys.stderr)
                return 1
            wall[i].append((t1 - t0) * 1e3)
            cpu[i].append((ru.ru_utime + ru.ru_stime) * 1e3)
    for i, c in enumerate(cmds):
        name = ' '.join(sys.argv[2 + i].split())[:60]
        print(f"{name:60s} wall median {statistics.median(wall[i]):7.1f} ms (min {min(wall[i]):7.1f})"
              f"  cpu median {statistics.median(cpu[i]):7.1f} ms (min {min(cpu[i]):7.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
