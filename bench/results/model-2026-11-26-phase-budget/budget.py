#!/usr/bin/env python3
"""Which phase budget `auto` keeps on a graph (docs/graph-combining.md, "Choosing the phase budget"),
at scale, from cartcoll-plan's simulated set-up: for budgets 2 and 4, each schedule's most messages
in each phase and in all and most blocks sent (maxima over processes), then the library's rule
(predicted_seconds of a GraphLoad, include/cartcoll/cost.hpp): the midpoint of the busiest process's
own work (a latency per phase that sends, its messages) and phases in lockstep (per phase, a latency
and its most messages), plus the blocks' bytes; per
collective the faster of trivial and graph-combining at 8-byte blocks, alltoall and allgather
summed, the smaller sum kept (a tie keeps 2). Usage: budget.py PATH/TO/cartcoll-plan > output.md"""
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
    ("ER p=64 δ=0.4 (simulated)", ["--erdos-renyi", "64", "0.4", "1"]),
    ("ER p=128 δ=0.4 (simulated)", ["--erdos-renyi", "128", "0.4", "1"]),
    ("ER p=512 δ=0.05 (simulated)", ["--erdos-renyi", "512", "0.05", "1"]),
    ("overlap p=128 K=32 0.5 (simulated)", ["--overlap-graph", "128", "32", "0.5", "1"]),
    ("overlap p=128 K=32 1.0 (simulated)", ["--overlap-graph", "128", "32", "1", "1"]),
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
            figures = [p[collective][algorithm] for p in processes]
            phases = max(len(f["messages_per_phase"]) for f in figures)
            per_phase = [max((f["messages_per_phase"] + [0] * phases)[k] for f in figures) for k in range(phases)]
            loads[collective, algorithm] = (per_phase, max(f["messages"] for f in figures), max(f["volume"] for f in figures))
    return loads


def seconds(load, model):
    _, phase, message, byte = model
    sending = [m for m in load[0] if m > 0]
    own_work = len(sending) * phase + load[1] * message
    lockstep = sum(phase + m * message for m in sending)
    return (own_work + lockstep) / 2 + load[2] * 8 * byte


print("| graph | budget | alltoall: most messages per phase / in all / blocks | allgather: the same | "
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
        phases = lambda load: "+".join(str(m) for m in load[0])
        print(f"| {name if b == 2 else ''} | {b} | {phases(a)} / {a[1]} / {a[2]} | {phases(g)} / {g[1]} / {g[2]} | "
              + " | ".join(cells) + " |")
    t, tg = direct["alltoall", "trivial"], direct["allgather", "trivial"]
    print(f"| | trivial | {phases(t)} / {t[1]} / {t[2]} | {phases(tg)} / {tg[1]} / {tg[2]} | "
          + " | ".join(f"{sum(seconds(direct[c, 'trivial'], m) for c in ('alltoall', 'allgather')) * 1e6:.1f} µs" for m in models) + " |")
    sys.stdout.flush()
