#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tables and figures of scripts/simulate.sh's results.csv (cartcoll-bench rows run under SMPI).

    report.py results.csv --out DIR [--elapsed S] [--skipped FILE] [--docs docs/simulation.md]

Writes DIR/tables.md (per operation, neighborhood and process count: the simulated median time of
each implementation and its ratio to `direct`, the baseline where the MPI has no MPI_Neighbor_*) and
DIR/ratios_<op>.png (ratio to `direct` against the process count, one panel per neighborhood and
overhead). With --docs, replaces the part of docs/simulation.md between the markers
<!-- simulation results begin --> and <!-- simulation results end --> with the tables.
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

BASELINE = "direct"
# The halo steps (--halo) run the persistent forms, overlap-combining among them.
HALO_IMPLS = ["cart-trivial-persistent", "cart-combining-persistent", "cart-overlap-combining-persistent",
              "cart-auto-persistent"]
IMPLS = ["cart-trivial", "cart-combining", "cart-torus", "cart-auto", "cc-trivial", "cc-graph-combining",
         "cc-graph-routing", "cc-neighbor-relay", "cc-auto"] + HALO_IMPLS + ["direct"]
# What each `auto` chooses between: Cartesian neighborhoods (Cart_*) and graphs (CC_*).
AUTO_CANDIDATES = {"cart-auto": ("cart-trivial", "cart-combining"),
                   "cc-auto": ("cc-trivial", "cc-graph-combining", "cc-graph-routing"),
                   "cart-auto-persistent": tuple(HALO_IMPLS[:3])}
COLORS = {"cart-trivial": "tab:blue", "cart-combining": "tab:orange", "cart-torus": "tab:green", "cart-auto": "tab:red",
          "cc-trivial": "tab:blue", "cc-graph-combining": "tab:orange", "cc-graph-routing": "tab:purple",
          "cc-auto": "tab:red", "cart-trivial-persistent": "tab:blue", "cart-combining-persistent": "tab:orange",
          "cart-overlap-combining-persistent": "tab:brown", "cart-auto-persistent": "tab:red"}
PLATFORMS = {"fattree": "100 Gb/s fat tree", "latency": "latency-only network"}
BEGIN, END = "<!-- simulation results begin -->", "<!-- simulation results end -->"


def read_rows(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["impl"] != "impl"]
    for r in rows:
        for k in ("d", "t", "processes", "block_elements", "messages_per_call", "bytes_per_call"):
            r[k] = int(r[k])
        r["median_s"] = float(r["median_s"])
    return rows


def overhead_of(transport):
    match = re.search(r"o([0-9.]+)us", transport)
    return match.group(1) if match else transport


def platform_of(transport):
    """The simulated network, named in the transport label (smpi-fattree-o0.5us, smpi-latency-o0.5us)."""
    match = re.match(r"smpi-([a-z]+)-", transport)
    return PLATFORMS.get(match.group(1), match.group(1)) if match else transport


def grouped(rows):
    """{(op, rule, neighborhood, t, overhead, platform): {processes: {m: {impl: row}}}}"""
    groups = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    for r in rows:
        key = (r["op"], r["size_rule"], r["neighborhood"], r["t"], overhead_of(r["transport"]),
               platform_of(r["transport"]))
        groups[key][r["processes"]][r["block_elements"]][r["impl"]] = r
    return groups


def tables(groups):
    out = []
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[3], k[2], -float(k[4]))):
        op, rule, neighborhood, t, overhead, platform = key
        rule_text = f", size rule {rule}" if rule != "uniform" else ""
        out.append(f"#### {op} {neighborhood} (t = {t}{rule_text}), overhead {overhead} µs per message, {platform}\n")
        impls = [i for i in IMPLS if any(i in by_m for by_p in groups[key].values() for by_m in by_p.values())]
        out.append("| p | m | " + " | ".join(f"`{i}`" for i in impls) + " | `auto` chose |")
        out.append("|---" * (len(impls) + 3) + "|")
        for p in sorted(groups[key]):
            for m in sorted(groups[key][p]):
                cells = groups[key][p][m]
                base = cells.get(BASELINE)
                row = [str(p), str(m)]
                for impl in impls:
                    r = cells.get(impl)
                    if r is None:
                        row.append("–")
                        continue
                    text = f"{r['median_s'] * 1e6:.1f} µs"
                    if base and impl != BASELINE and base["median_s"] > 0:
                        text += f" ({r['median_s'] / base['median_s']:.2f})"
                    row.append(text)
                row.append(auto_choice(cells))
                out.append("| " + " | ".join(row) + " |")
        out.append("")
    return "\n".join(out)


def auto_choice(cells):
    """Which schedule `auto` ran, told by its messages and bytes, and whether it was the faster one."""
    found = [(cells[a], c) for a, c in AUTO_CANDIDATES.items() if a in cells]
    if not found:
        return "–"
    auto, choices = found[0]
    same = [i for i in choices if i in cells and cells[i]["messages_per_call"] == auto["messages_per_call"]]
    # Schedules of one message count (combining and overlap-combining) differ in their bytes.
    same = [i for i in same if cells[i]["bytes_per_call"] == auto["bytes_per_call"]] or same
    name = same[0].split("-", 1)[1].removesuffix("-persistent") if same else "?"
    candidates = [cells[i]["median_s"] for i in choices if i in cells]
    if not candidates or min(candidates) <= 0:
        return name
    return f"{name} ({auto['median_s'] / min(candidates):.2f} × best)"


def figures(groups, out_dir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: no matplotlib, no figures", file=sys.stderr)
        return []
    made = []
    by_op = defaultdict(list)
    for key in groups:
        by_op[(key[0], key[1])].append(key)
    for (op, rule), keys in sorted(by_op.items()):
        keys.sort(key=lambda k: (k[3], k[2], -float(k[4]), k[5]))
        columns = min(4, len(keys))
        rows_n = (len(keys) + columns - 1) // columns
        fig, axes = plt.subplots(rows_n, columns, figsize=(4 * columns, 3.2 * rows_n), squeeze=False)
        for ax, key in zip(axes.flat, keys):
            for impl, color in COLORS.items():
                for m, marker in zip(sorted({m for by_m in groups[key].values() for m in by_m}), "o^sDv"):
                    points = [(p, groups[key][p][m][impl]["median_s"] / groups[key][p][m][BASELINE]["median_s"])
                              for p in sorted(groups[key]) if m in groups[key][p]
                              and impl in groups[key][p][m] and BASELINE in groups[key][p][m]]
                    if points:
                        auto = impl.endswith("-auto")
                        ax.plot(*zip(*points), marker=marker, color=color, fillstyle="none" if auto else "full",
                                markersize=9 if auto else 5, label=f"{impl} m={m}")
            ax.set_xscale("log", base=2)
            ax.axhline(1.0, color="grey", linewidth=0.8)
            ax.set_title(f"{key[2]} (t={key[3]}), o={key[4]} µs, {key[5]}", fontsize=8)
            ax.set_xlabel("simulated processes")
            ax.set_ylabel("time / direct")
        for ax in list(axes.flat)[len(keys):]:
            ax.axis("off")
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=7)
        fig.suptitle(f"{op}{' rule ' + rule if rule != 'uniform' else ''}: simulated time relative to direct "
                     "(SMPI)")
        fig.tight_layout(rect=(0, 0.08, 1, 0.95))
        name = f"ratios_{op}{'_' + rule if rule != 'uniform' else ''}.png"
        fig.savefig(os.path.join(out_dir, name), dpi=90)
        plt.close(fig)
        made.append(name)
    return made


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--out", required=True)
    parser.add_argument("--elapsed", type=int)
    parser.add_argument("--skipped")
    parser.add_argument("--docs")
    args = parser.parse_args()
    rows = read_rows(args.results)
    groups = grouped(rows)
    text = tables(groups)
    if args.skipped and os.path.exists(args.skipped) and os.path.getsize(args.skipped) > 0:
        text += "\nNot run or failed:\n\n" + "".join(f"- {line}" for line in open(args.skipped)) + "\n"
    if args.elapsed is not None:
        text += f"\nSimulation wall time of this run: {args.elapsed} s.\n"
    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write(text)
    made = figures(groups, args.out)
    print(f"report.py: {args.out}/tables.md, {len(made)} figure(s)")
    if args.docs:
        doc = open(args.docs).read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"report.py: {args.docs} lacks the markers {BEGIN} / {END}")
        head, rest = doc.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        with open(args.docs, "w") as f:
            f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


if __name__ == "__main__":
    main()
