#!/usr/bin/env python3
"""Which phase budget `auto` keeps on a graph (docs/graph-combining.md, "Choosing the phase budget"),
at scale, from cartcoll-plan's simulated set-up: for budgets 2 and 4, the maxima over processes of
each schedule's phases, messages and blocks sent, then the library's rule: per collective the faster
of trivial and graph-combining at 8-byte blocks, alltoall and allgather summed, the smaller sum kept
(a tie keeps 2). Usage: budget.py PATH/TO/cartcoll-plan > output.txt"""
import json
import subprocess
import sys

plan = sys.argv[1]
graphs = [
    ("ER p=4096 δ=0.05", ["--erdos-renyi", "4096", "0.05", "1"]),
    ("ER p=4096 δ=0.01", ["--erdos-renyi", "4096", "0.01", "1"]),
    ("ER p=1024 δ=0.05", ["--erdos-renyi", "1024", "0.05", "1"]),
    ("ER p=1024 δ=0.2", ["--erdos-renyi", "1024", "0.2", "1"]),
    ("Moore D=3 R=1, p=4096", ["--moore-graph", "4096", "3", "1"]),
    ("Moore D=3 R=2, p=4096", ["--moore-graph", "4096", "3", "2"]),
    ("overlap p=1024 K=64 0.5", ["--overlap-graph", "1024", "64", "0.5", "1"]),
    ("overlap p=1024 K=64 1.0", ["--overlap-graph", "1024", "64", "1", "1"]),
    ("ER p=27 δ=0.5 (the suite's)", ["--erdos-renyi", "27", "0.5", "1"]),
]
models = [  # name, seconds a phase, a message, a byte
    ("default (5 µs, 1 µs, 1 ns)", 5e-6, 1e-6, 1e-9),
    ("simulated fat tree (1 µs, 0.5 µs, 0)", 1e-6, 0.5e-6, 0.0),
    ("this machine's TCP fit (0.41 ms, 0.124 ms, 1 ns)", 0.41e-3, 0.124e-3, 1e-9),
]


def maxima(args, budget):
    out = subprocess.run([plan, *args, "--phases", str(budget), "--json"], check=True, capture_output=True, text=True).stdout
    processes = json.loads(out)["processes"]
    loads = {}
    for collective in ("alltoall", "allgather"):
        for algorithm in ("trivial", "graph-combining"):
            loads[collective, algorithm] = tuple(max(p[collective][algorithm][k] for p in processes)
                                                 for k in ("phases", "messages", "volume"))
    return loads


def seconds(load, model):
    _, phase, message, byte = model
    return load[0] * phase + load[1] * message + load[2] * 8 * byte


print("| graph | budget | alltoall: phases / messages / blocks (most) | allgather: the same | "
      + " | ".join(m[0] for m in models) + " |")
print("| --- | --- | --- | --- | " + " | ".join("---" for _ in models) + " |")
for name, args in graphs:
    by_budget = {b: maxima(args, b) for b in (2, 4)}
    direct = by_budget[2]
    predicted = {b: [sum(min(seconds(direct[c, "trivial"], m), seconds(by_budget[b][c, "graph-combining"], m))
                         for c in ("alltoall", "allgather")) for m in models] for b in (2, 4)}
    for b in (2, 4):
        cells = []
        for i in range(len(models)):
            chosen = 4 if predicted[4][i] < predicted[2][i] * (1 - 1e-9) else 2
            mark = " **kept**" if chosen == b else ""
            cells.append(f"{predicted[b][i] * 1e6:.1f} µs{mark}")
        a, g = by_budget[b]["alltoall", "graph-combining"], by_budget[b]["allgather", "graph-combining"]
        print(f"| {name if b == 2 else ''} | {b} | {a[0]} / {a[1]} / {a[2]} | {g[0]} / {g[1]} / {g[2]} | " + " | ".join(cells) + " |")
    t = direct["alltoall", "trivial"]
    print(f"| | trivial | 1 / {t[1]} / {t[2]} | 1 / {t[1]} / {direct['allgather', 'trivial'][2]} | | | |")
    sys.stdout.flush()
