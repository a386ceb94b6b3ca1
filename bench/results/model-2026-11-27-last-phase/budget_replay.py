#!/usr/bin/env python3
"""The phase budget `auto` keeps on a graph against what the replay says (2026-11-27, after "every
delivery in the last phase", docs/graph-combining.md). Per graph and budget 2 and 4, allgather with
4-byte blocks: the model's prediction (predicted_seconds of a GraphLoad with the simulated machine's
profile, 1 µs a phase and 0.5 µs a message, nothing per byte: the midpoint of the busiest process's
own work and phases in lockstep) and the call's time replayed on that machine (cartcoll-plan
--replay 0.5 1), and trivial's. Usage: budget_replay.py PATH/TO/cartcoll-plan > output.md"""
import json
import subprocess
import sys

plan = sys.argv[1]
graphs = [
    ("ER p=4096 δ=0.05", ["--erdos-renyi", "4096", "0.05", "1"]),
    ("ER p=1024 δ=0.05", ["--erdos-renyi", "1024", "0.05", "1"]),
    ("ER p=1024 δ=0.2", ["--erdos-renyi", "1024", "0.2", "1"]),
    ("Moore D=3 R=1, p=4096", ["--moore-graph", "4096", "3", "1"]),
    ("Moore D=3 R=2, p=4096", ["--moore-graph", "4096", "3", "2"]),
    ("overlap p=1024 K=64 0.5", ["--overlap-graph", "1024", "64", "0.5", "1"]),
    ("overlap p=1024 K=64 1.0", ["--overlap-graph", "1024", "64", "1", "1"]),
    ("ER p=27 δ=0.5 (the suite's)", ["--erdos-renyi", "27", "0.5", "1"]),
    ("ER p=64 δ=0.4", ["--erdos-renyi", "64", "0.4", "1"]),
    ("ER p=128 δ=0.4", ["--erdos-renyi", "128", "0.4", "1"]),
    ("ER p=512 δ=0.05", ["--erdos-renyi", "512", "0.05", "1"]),
    ("overlap p=128 K=32 0.5", ["--overlap-graph", "128", "32", "0.5", "1"]),
    ("overlap p=128 K=32 1.0", ["--overlap-graph", "128", "32", "1", "1"]),
]
PHASE, MESSAGE = 1e-6, 0.5e-6


def run(args, budget):
    out = json.loads(subprocess.run([plan, *args, "--phases", str(budget), "--replay", "0.5", "1", "--json"],
                                    check=True, capture_output=True, text=True).stdout)
    result = {}
    for algorithm in ("trivial", "graph-combining"):
        figures = [p["allgather"][algorithm] for p in out["processes"]]
        phases = max(len(f["messages_per_phase"]) for f in figures)
        per_phase = [max((f["messages_per_phase"] + [0] * phases)[k] for f in figures) for k in range(phases)]
        sending = [m for m in per_phase if m > 0]
        own_work = len(sending) * PHASE + max(f["messages"] for f in figures) * MESSAGE
        lockstep = sum(PHASE + m * MESSAGE for m in sending)
        result[algorithm] = ((own_work + lockstep) / 2, out["replayed_s"][algorithm][1], "+".join(map(str, per_phase)))
    return result


print("| graph | trivial: model / replay | budget 2: most messages per phase; model / replay | budget 4: the same | model keeps | replay's faster |")
print("| --- | --- | --- | --- | --- | --- |")
for name, args in graphs:
    two, four = run(args, 2), run(args, 4)
    t = two["trivial"]
    cell = lambda r: f"{r[2]}; {r[0] * 1e6:.1f} / {r[1] * 1e6:.1f} µs"
    keeps = 4 if four["graph-combining"][0] < two["graph-combining"][0] * (1 - 1e-9) else 2
    faster = 4 if four["graph-combining"][1] < two["graph-combining"][1] else 2
    print(f"| {name} | {t[0] * 1e6:.1f} / {t[1] * 1e6:.1f} µs | {cell(two['graph-combining'])} | {cell(four['graph-combining'])} | {keeps} | {faster} |")
    sys.stdout.flush()
