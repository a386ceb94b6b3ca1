#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Turns cartcoll-bench CSV output into figures and markdown tables.

    plot.py [--out DIR] [--markdown FILE] [--results-md FILE] CSV...

Every CSV given is classified by its header: result files (the columns of `cartcoll-bench --csv`,
see docs/benchmarking.md) and set-up files (`cartcoll-bench --setup`: kind,neighborhood,d,r,t,
processes,seconds, optionally with a leading transport column as scripts/bench-suite.sh writes it).
Files may be concatenated (repeated header lines are skipped), may come from several transports and
MPI libraries, and may lack implementations (missing rows are simply not drawn).

Writes, under --out:
  * one PNG per (operation, size rule, transport, MPI library), like Figures 3-6 of Träff and Hunold,
    Cartesian Collective Communication: one panel per
    neighborhood, grouped bars per block size, bar height = median time relative to mpi-neighbor,
    the absolute median printed on each bar, a line at 1.0;
  * tables.md: the results as markdown tables, the set-up table with break-even repetitions, and the
    performance targets checked against the data.
With --results-md FILE it also writes a complete results page (machine description from
--machine FILE, caveats, skipped steps from --skipped FILE, figures linked relative to FILE).
"""
import argparse
import csv
import math
import os
import re
import statistics
import sys
import textwrap
from collections import OrderedDict, defaultdict

try:
    import matplotlib
except ImportError:  # a pyenv/venv python3 shadowing Debian's: retry with the system interpreter
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RESULT_COLUMNS = ["impl", "op", "neighborhood", "d", "t", "processes", "block_elements", "element_bytes",
                  "size_rule", "median_s", "min_s", "max_s", "ratio_to_mpi_neighbor", "messages_per_call",
                  "bytes_per_call", "mpi_library", "mpi_version", "transport", "pinning", "reps_kept",
                  "reps_total"]
SETUP_COLUMNS = ["kind", "neighborhood", "d", "r", "t", "processes", "seconds"]
BASELINE = "mpi-neighbor"
# Drawing order; anything else follows alphabetically.
IMPL_ORDER = ["mpi-neighbor", "mpi-ineighbor", "mpi-neighbor-persistent", "mpi-cart-neighbor",
              "cart-trivial", "cart-trivial-persistent", "cart-combining", "cart-combining-persistent",
              "cart-torus", "cart-torus-persistent", "cart-auto", "cart-auto-persistent",
              "cc-trivial", "cc-trivial-persistent", "cc-auto", "cc-auto-persistent", "ideal"]
COLORS = {
    "mpi-neighbor": "#7f7f7f", "mpi-ineighbor": "#b0b0b0", "mpi-neighbor-persistent": "#4d4d4d",
    "mpi-cart-neighbor": "#c7c7c7",
    "cart-trivial": "#1f77b4", "cart-trivial-persistent": "#aec7e8",
    "cart-combining": "#d62728", "cart-combining-persistent": "#ff9896",
    "cart-torus": "#2ca02c", "cart-torus-persistent": "#98df8a",
    "cart-auto": "#ff7f0e", "cart-auto-persistent": "#ffbb78",
    "cc-trivial": "#17becf", "cc-trivial-persistent": "#9edae5",
    "cc-auto": "#bcbd22", "cc-auto-persistent": "#dbdb8d",
    "ideal": "#9467bd",
}


# ----------------------------------------------------------------------------------------------- input

def number(text, default=None):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return default
    return value if math.isfinite(value) else default


def read_csvs(paths):
    """Returns (result rows, setup rows); each row a dict of strings."""
    results, setups = [], []
    for path in paths:
        with open(path, newline="") as handle:
            header = None
            for fields in csv.reader(handle):
                if not fields or all(not f.strip() for f in fields):
                    continue
                fields = [f.strip() for f in fields]
                if fields[0] in ("impl", "kind", "transport") and ("impl" in fields or "kind" in fields):
                    header = fields  # first header, or a repeated one from concatenated files
                    continue
                if header is None:
                    print(f"plot.py: {path}: no header line, skipped", file=sys.stderr)
                    break
                if len(fields) != len(header):
                    print(f"plot.py: {path}: row of {len(fields)} fields under a header of {len(header)}: {fields[:3]}...",
                          file=sys.stderr)
                    continue
                row = dict(zip(header, fields))
                (setups if "kind" in header else results).append(row)
    return results, setups


def normalise(rows):
    """Fills defaults, parses numbers, keeps the last row of any repeated measurement, drops rows
    without a time, and computes ratio_to_mpi_neighbor where the program could not."""
    kept = OrderedDict()
    for row in rows:
        r = {c: row.get(c, "") for c in RESULT_COLUMNS}
        r.update({k: v for k, v in row.items() if k not in r})
        for c in ("median_s", "min_s", "max_s", "ratio_to_mpi_neighbor", "messages_per_call", "bytes_per_call"):
            r[c] = number(r[c])
        for c in ("d", "t", "processes", "block_elements", "element_bytes", "reps_kept", "reps_total"):
            value = number(r[c])
            r[c] = int(value) if value is not None else None
        if r["block_elements"] is None:  # older CSVs: block_ints
            value = number(row.get("block_ints"))
            r["block_elements"] = int(value) if value is not None else None
        r["size_rule"] = r["size_rule"] or "uniform"
        r["transport"] = r["transport"] or "unknown"
        r["mpi_library"] = r["mpi_library"] or "unknown MPI"
        r["neighborhood"] = r["neighborhood"] or (f"d{r['d']}-t{r['t']}" if r["d"] else "?")
        if r["median_s"] is None or r["median_s"] <= 0 or r["block_elements"] is None:
            continue  # a skipped implementation or an unfinished row
        kept[measurement_key(r) + (r["impl"],)] = r
    rows = list(kept.values())
    baseline = {measurement_key(r): r["median_s"] for r in rows if r["impl"] == BASELINE}
    for r in rows:
        if not r["ratio_to_mpi_neighbor"] or r["ratio_to_mpi_neighbor"] <= 0:
            base = baseline.get(measurement_key(r))
            r["ratio_to_mpi_neighbor"] = r["median_s"] / base if base else None
    return rows


def measurement_key(r):
    return (r["op"], r["size_rule"], r["transport"], r["mpi_library"], r["neighborhood"], r["d"], r["t"],
            r["processes"], r["block_elements"], r["element_bytes"])


def impl_sort_key(name):
    return (IMPL_ORDER.index(name), "") if name in IMPL_ORDER else (len(IMPL_ORDER), name)


def short_library(library):
    """'Open MPI v4.1.4, package: ...' -> 'Open MPI v4.1.4'; 'MPICH Version: 4.0.2 ...' -> 'MPICH 4.0.2'."""
    text = library.split(",")[0].strip()
    text = re.sub(r"\s*Version:\s*", " ", text)
    return text[:40] or "unknown MPI"


def slug(text):
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-").lower()[:40] or "x"


def format_time(seconds):
    if seconds is None:
        return "–"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs" if seconds * 1e6 < 100 else f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def neighborhood_sort_key(name, d, t):
    kind = re.split(r"[^a-z]", name.lower())[0]
    order = {"box": 0, "moore": 1, "von": 2, "octant": 3, "shales": 4}.get(kind, 5)
    return (order, d or 0, t or 0, name)


# ----------------------------------------------------------------------------------------------- figures

def figure_groups(rows):
    """Rows by (op, size rule, transport, library); distributed graphs (d = 0) apart from offsets."""
    groups = defaultdict(list)
    for r in rows:
        op = r["op"] + (" on graphs" if r["d"] == 0 else "")
        groups[(op, r["size_rule"], r["transport"], r["mpi_library"])].append(r)
    return groups


def panel_title(name, d, t, processes):
    if d == 0:
        return f"{name}\n({t} edges per process, p={processes})"
    return f"{name}\n(d={d}, t={t}, p={processes})"


def draw_figure(key, rows, out_dir, cap, impls_filter):
    op, size_rule, transport, library = key
    panels = defaultdict(list)
    for r in rows:
        if impls_filter and r["impl"] not in impls_filter:
            continue
        panels[(r["neighborhood"], r["d"], r["t"], r["processes"])].append(r)
    if not panels:
        return None
    panel_keys = sorted(panels, key=lambda k: (neighborhood_sort_key(k[0], k[1], k[2]), k[3] or 0))
    impls = sorted({r["impl"] for r in rows if r["ratio_to_mpi_neighbor"] is not None}, key=impl_sort_key)
    if not impls:
        return None
    ncols = min(3, len(panel_keys))
    nrows = math.ceil(len(panel_keys) / ncols)
    sizes_max = max(len({r["block_elements"] for r in panels[k]}) for k in panel_keys)
    panel_width = max(4.2, 0.32 * len(impls) * sizes_max + 1.2)
    height = 3.9 * nrows + 0.8
    fig, axes = plt.subplots(nrows, ncols, figsize=(panel_width * ncols, height), squeeze=False)
    # One y scale for the whole figure, so that panels compare at a glance.
    ratios = [r["ratio_to_mpi_neighbor"] for k in panel_keys for r in panels[k] if r["ratio_to_mpi_neighbor"]]
    top = min(max(ratios + [1.0]) * 1.12, cap)
    for index, pkey in enumerate(panel_keys):
        ax = axes[index // ncols][index % ncols]
        prow = panels[pkey]
        sizes = sorted({r["block_elements"] for r in prow})
        by = {(r["impl"], r["block_elements"]): r for r in prow}
        ylim = top * 1.45  # headroom for the printed times
        width = 0.84 / len(impls)
        for i, impl in enumerate(impls):
            for j, size in enumerate(sizes):
                r = by.get((impl, size))
                if r is None or r["ratio_to_mpi_neighbor"] is None:
                    continue
                x = j + (i - (len(impls) - 1) / 2) * width
                ratio = r["ratio_to_mpi_neighbor"]
                clipped = ratio > top
                ax.bar(x, min(ratio, top), width * 0.92, color=COLORS.get(impl, None), edgecolor="black",
                       linewidth=0.4, hatch="//" if clipped else None,
                       label=impl if j == 0 or (impl, sizes[0]) not in by else None)
                label = format_time(r["median_s"]) + (f"  ({ratio:.1f}×)" if clipped else "")
                ax.text(x, min(ratio, top) + top * 0.015, label, rotation=90, ha="center", va="bottom",
                        fontsize=6.5, zorder=4, bbox=dict(facecolor="white", edgecolor="none", pad=0.3, alpha=0.8))
        ax.axhline(1.0, color="black", linewidth=0.9, linestyle="--", zorder=3)
        ax.set_xticks(range(len(sizes)))
        element_bytes = prow[0]["element_bytes"]
        unit = f" × {element_bytes} B" if element_bytes else ""
        ax.set_xticklabels([str(s) for s in sizes])
        ax.set_xlabel(f"block size (elements{unit})" + ("" if size_rule == "uniform" else f", rule {size_rule}"),
                      fontsize=8)
        ax.set_ylabel(f"time / {BASELINE}", fontsize=8)
        ax.set_ylim(0, ylim)
        ax.set_xlim(-0.5, len(sizes) - 0.5)
        ax.tick_params(labelsize=8)
        ax.set_title(panel_title(*pkey), fontsize=9)
        ax.grid(axis="y", linewidth=0.3, alpha=0.6)
    for index in range(len(panel_keys), nrows * ncols):
        axes[index // ncols][index % ncols].axis("off")
    handles = {}
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(l, h)
    labels = sorted(handles, key=impl_sort_key)
    fig_width = panel_width * ncols
    # The legend and the title are fitted to the figure's width (about 0.075 in a character at 8 pt,
    # 0.095 at 11 pt), wrapping onto more rows and lines rather than running off the edges.
    label_width = 0.075 * max(len(l) for l in labels) + 0.55
    legend_cols = max(1, min(len(labels), int(fig_width // label_width)))
    legend_rows = math.ceil(len(labels) / legend_cols)
    fig.legend([handles[l] for l in labels], labels, loc="lower center", ncol=legend_cols, fontsize=8,
               frameon=False)
    rule = "" if size_rule == "uniform" else f" (irregular sizes, rule {size_rule})"
    collective = op.replace(" on graphs", "")
    title = textwrap.fill(f"{op}{rule}: median time relative to MPI_Neighbor_{collective} — {transport}, "
                          f"{short_library(library)}", width=max(30, int(fig_width / 0.095)), break_on_hyphens=False)
    title_lines = title.count("\n") + 1
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, (0.25 + 0.2 * legend_rows) / height, 1, 1 - (0.15 + 0.2 * title_lines) / height))
    name = f"{slug(op)}{'' if size_rule == 'uniform' else '-' + slug(size_rule)}_{slug(transport)}_" \
           f"{slug(short_library(library))}.png"
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=110, bbox_inches="tight", pad_inches=0.15)  # never cuts what overhangs
    plt.close(fig)
    return path


# ----------------------------------------------------------------------------------------------- tables

def results_tables(rows):
    """One markdown table per (op, size rule, transport, library): a row per neighborhood and size,
    a column per implementation with 'median (ratio×)'."""
    out = []
    for key, group in sorted(figure_groups(rows).items()):
        op, size_rule, transport, library = key
        impls = sorted({r["impl"] for r in group}, key=impl_sort_key)
        by = {(r["neighborhood"], r["d"], r["t"], r["processes"], r["block_elements"], r["impl"]): r for r in group}
        lines = sorted({k[:5] for k in by}, key=lambda k: (neighborhood_sort_key(k[0], k[1], k[2]), k[3] or 0, k[4]))
        rule = "" if size_rule == "uniform" else f", size rule {size_rule}"
        out.append(f"#### {op}{rule} — {transport}, {short_library(library)}\n")
        out.append("Median time per call and, in parentheses, the ratio to `mpi-neighbor`; "
                   "messages/bytes are what one process sends per call.\n")
        out.append("| neighborhood | p | m | " + " | ".join(f"`{i}`" for i in impls) + " |")
        out.append("|---|---:|---:|" + "---:|" * len(impls))
        for line in lines:
            cells = []
            for impl in impls:
                r = by.get(line + (impl,))
                if r is None:
                    cells.append("–")
                    continue
                ratio = r["ratio_to_mpi_neighbor"]
                cell = format_time(r["median_s"]) + (f" ({ratio:.2f}×)" if ratio is not None else "")
                if r["messages_per_call"] is not None and r["bytes_per_call"] is not None:
                    cell += f"<br><sub>{r['messages_per_call']:.0f} msg, {format_bytes(r['bytes_per_call'])}</sub>"
                cells.append(cell)
            out.append(f"| {line[0]} (t={line[2]}) | {line[3]} | {line[4]} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def format_bytes(n):
    if n < 1024:
        return f"{n:.0f} B"
    if n < 1024 ** 2:
        return f"{n / 1024:.3g} KiB"
    return f"{n / 1024 ** 2:.3g} MiB"


SETUP_KINDS = ["dist_graph_create_adjacent", "dist_graph_create", "cart_neighborhood_create", "cart_alltoall_init",
               "cart_call", "mpi_call"]


def setup_table(setups):
    if not setups:
        return ""
    cells = defaultdict(list)
    for row in setups:
        seconds = number(row.get("seconds"))
        if seconds is None:
            continue
        key = (row.get("transport", "") or "", row.get("neighborhood", ""), int(number(row.get("d"), 0)),
               int(number(row.get("r"), 0)), int(number(row.get("t"), 0)), int(number(row.get("processes"), 0)))
        cells[key + (row.get("kind", ""),)].append(seconds)
    value = {k: statistics.median(v) for k, v in cells.items()}
    keys = sorted({k[:6] for k in value}, key=lambda k: (k[0], k[2], k[3], k[5]))
    out = ["Set-up times like Table 2 of Träff, Carpen-Amarie, Hunold and Rougier, *Message-Combining "
           "Algorithms for Isomorphic, Sparse Collective Communication* (median over the runs recorded; all times in ms except the calls, "
           "in µs). *Break-even*: the repetitions after which cartcoll's set-up has paid for itself, "
           "(Cart_neighborhood_create + Cart_alltoall_init − MPI_Dist_graph_create_adjacent) / "
           "(MPI call − cartcoll call); *never* where cartcoll's call is not faster.\n",
           "| transport | neighborhood | d | r | t | p | Dist_graph_create_adjacent | Dist_graph_create | "
           "Cart_neighborhood_create | Cart_alltoall_init | MPI call (µs) | cartcoll call (µs) | break-even |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for k in keys:
        get = {kind: value.get(k + (kind,)) for kind in SETUP_KINDS}
        ms = lambda v: "–" if v is None else f"{v * 1e3:.3g}"  # noqa: E731
        us = lambda v: "–" if v is None else f"{v * 1e6:.3g}"  # noqa: E731
        out.append(f"| {k[0] or '–'} | {k[1]} | {k[2]} | {k[3]} | {k[4]} | {k[5]} | {ms(get['dist_graph_create_adjacent'])} | "
                   f"{ms(get['dist_graph_create'])} | {ms(get['cart_neighborhood_create'])} | "
                   f"{ms(get['cart_alltoall_init'])} | {us(get['mpi_call'])} | {us(get['cart_call'])} | "
                   f"{break_even(get)} |")
    return "\n".join(out) + "\n"


def break_even(get):
    need = ("cart_neighborhood_create", "cart_alltoall_init", "dist_graph_create_adjacent", "mpi_call", "cart_call")
    if any(get[k] is None for k in need):
        return "–"
    extra = get["cart_neighborhood_create"] + get["cart_alltoall_init"] - get["dist_graph_create_adjacent"]
    saved = get["mpi_call"] - get["cart_call"]
    if saved <= 0:
        return "never"
    if extra <= 0:
        return "0 (set-up cheaper)"
    return str(math.ceil(extra / saved))


# ----------------------------------------------------------------------------------------------- targets

def is_target_shape(r):
    """3-D Moore radius 1 at 27 processes; not the rows with emulated nodes (--node-size: label -nodesN)."""
    return (r["processes"] == 27 and "moore" in r["neighborhood"].lower() and r["d"] == 3 and r["t"] == 26
            and r["size_rule"] == "uniform" and "-nodes" not in r["neighborhood"])


def is_target_config(r):
    return is_target_shape(r) and "tcp" in r["transport"].lower() and "open" in r["mpi_library"].lower()


def target_lines(cfg):
    """One table row per Cartesian target, measured on the rows `cfg`."""
    by = {(r["op"], r["block_elements"], r["impl"]): r for r in cfg}
    ops = sorted({r["op"] for r in cfg})
    sizes = sorted({r["block_elements"] for r in cfg})
    lines = []

    def verdict(ok):
        return "–" if ok is None else ("yes" if ok else "**no**")

    def ratio_of(op, size, impl, base):
        a, b = by.get((op, size, impl)), by.get((op, size, base))
        return a["median_s"] / b["median_s"] if a and b else None

    for op, limit in (("alltoall", 0.30), ("allgather", 0.35)):
        ratio = ratio_of(op, 1, "cart-auto", BASELINE)
        lines.append(f"| `cart-auto` {op}, 1 int, ≤ {limit:.2f} × `mpi-neighbor` | "
                     f"{'not measured' if ratio is None else f'{ratio:.2f} ×'} | "
                     f"{verdict(None if ratio is None else ratio <= limit)} |")

    def worst(impl, bases, limit, label, size_filter=lambda s: True):
        found = []
        for op in ops:
            for size in sizes:
                if not size_filter(size):
                    continue
                base_times = [by[(op, size, b)]["median_s"] for b in bases if (op, size, b) in by]
                a = by.get((op, size, impl))
                if a is None or len(base_times) != len(bases):
                    continue
                found.append((a["median_s"] / min(base_times), op, size))
        if not found:
            lines.append(f"| {label} | not measured | – |")
            return
        ratio, op, size = max(found)
        covered = f"{len(found)} op×size points, m = {min(f[2] for f in found)}..{max(f[2] for f in found)}"
        lines.append(f"| {label} | worst {ratio:.2f} × ({op}, m = {size}; {covered}) | {verdict(ratio <= limit)} |")

    worst("cart-trivial", [BASELINE], 1.1, "`cart-trivial` ≤ 1.1 × `mpi-neighbor` at every size")
    worst("cart-combining", ["ideal"], 1.2, "`cart-combining` ≤ 1.2 × `ideal`")
    worst("cart-auto", ["cart-trivial", "cart-combining"], 1.1,
          "`cart-auto` ≤ 1.1 × min(`cart-trivial`, `cart-combining`), 1..10^5 elements",
          lambda s: 1 <= s <= 100000)
    return lines, sizes


def graph_targets(rows):
    """The graph target: on distributed graphs, the trivial schedule (`cc-trivial`) within 1.05 × of
    `mpi-neighbor` at every size (and its persistent form against MPI's), per transport and library."""
    pairs = (("cc-trivial", BASELINE), ("cc-trivial-persistent", "mpi-neighbor-persistent"))
    out = []
    configs = sorted({(r["transport"], short_library(r["mpi_library"])) for r in rows if r["d"] == 0})
    for transport, library in configs:
        by = {measurement_key(r) + (r["impl"],): r for r in rows
              if r["d"] == 0 and r["transport"] == transport and short_library(r["mpi_library"]) == library}
        for impl, base in pairs:
            ratios = [(r["median_s"] / by[key[:-1] + (base,)]["median_s"], r["op"], r["neighborhood"],
                       r["processes"], r["block_elements"])
                      for key, r in by.items() if key[-1] == impl and key[:-1] + (base,) in by]
            if not ratios:
                continue
            ratio, op, name, p, m = max(ratios)
            met = "yes" if ratio <= 1.05 else "**no**"
            out.append(f"| {library}, `{transport}` | `{impl}` ≤ 1.05 × `{base}` | worst {ratio:.2f} × ({op}, {name}, "
                       f"p = {p}, m = {m}; {len(ratios)} points) | {met} |")
        out += auto_on_graphs(by, library, transport)
    if not out:
        return ""
    return "\n".join(["| configuration | target | measured | met? |", "|---|---|---|---|"] + out) + "\n"


def auto_on_graphs(by, library, transport):
    """The target of `auto` on graphs: `cc-auto` within 1.05 × of the best of `cc-trivial`, `cc-graph-combining` and,
    where it was measured, `cc-graph-routing`."""
    candidates = ("cc-trivial", "cc-graph-combining")
    ratios = []
    for key, r in by.items():
        if key[-1] != "cc-auto" or any(key[:-1] + (c,) not in by for c in candidates):
            continue
        measured = candidates + (("cc-graph-routing",) if key[:-1] + ("cc-graph-routing",) in by else ())
        best = min(by[key[:-1] + (c,)]["median_s"] for c in measured)
        ratios.append((r["median_s"] / best, r["op"], r["neighborhood"], r["processes"], r["block_elements"]))
    if not ratios:
        return []
    ratio, op, name, p, m = max(ratios)
    met = "yes" if ratio <= 1.05 else "**no**"
    return [f"| {library}, `{transport}` | `cc-auto` ≤ 1.05 × min(`cc-trivial`, `cc-graph-combining`, `cc-graph-routing`) | "
            f"worst {ratio:.2f} × ({op}, {name}, p = {p}, m = {m}; {len(ratios)} points) | {met} |"]


def targets(rows):
    """The performance targets, checked on 27 ranks, Open MPI over TCP, 3-D Moore radius 1; then the same
    checks on the other transports, for comparison."""
    header = ["| target | measured | met? |", "|---|---|---|"]
    lines, sizes = target_lines([r for r in rows if is_target_config(r)])
    head = ("Checked on the rows with 27 processes, Open MPI over TCP loopback, 3-D Moore radius 1 (t = 26), "
            "uniform block sizes" + (f"; sizes measured: {', '.join(map(str, sizes))}" if sizes else
                                     "; no such rows in the data") + ".\n")
    out = head + "\n" + "\n".join(header + lines) + "\n"
    others = sorted({(r["transport"], short_library(r["mpi_library"])) for r in rows
                     if is_target_shape(r) and not is_target_config(r)})
    for transport, library in others:
        cfg = [r for r in rows if is_target_shape(r) and r["transport"] == transport
               and short_library(r["mpi_library"]) == library]
        other_lines, _ = target_lines(cfg)
        out += (f"\nThe same checks on {library}, `{transport}` (not a target there; for comparison):\n\n"
                + "\n".join(header + other_lines) + "\n")
    graphs = graph_targets(rows)
    if graphs:
        out += ("\nDistributed graphs: the trivial schedule against MPI's own, and `auto` against "
                "the best of trivial, graph-combining and (where measured) graph-routing, at every size measured.\n\n" + graphs)
    return out


# ----------------------------------------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="result and/or set-up CSV files")
    parser.add_argument("--out", default=".", help="directory for the PNGs and tables.md (default: .)")
    parser.add_argument("--cap", type=float, default=3.0, help="highest ratio drawn; taller bars are hatched "
                        "and labelled with their ratio (default 3)")
    parser.add_argument("--impls", help="comma-separated implementations to draw (default: all present)")
    parser.add_argument("--markdown", help="write the tables here (default: OUT/tables.md)")
    parser.add_argument("--results-md", help="write a complete results page (the run folder's results.md) here")
    parser.add_argument("--machine", help="markdown file describing the machine, included in --results-md")
    parser.add_argument("--skipped", help="file listing skipped suite steps, one a line, included in --results-md")
    parser.add_argument("--title", default="Benchmark results", help="heading of --results-md")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 0,
                        help="cores of the machine that ran the benchmarks (default: this machine's)")
    args = parser.parse_args()

    raw, setups = read_csvs(args.csv)
    rows = normalise(raw)
    os.makedirs(args.out, exist_ok=True)
    impls_filter = set(args.impls.split(",")) if args.impls else None
    figures = []
    for key, group in sorted(figure_groups(rows).items()):
        path = draw_figure(key, group, args.out, args.cap, impls_filter)
        if path:
            figures.append((key, path))
            print(f"plot.py: wrote {path}")
    tables = results_tables(rows)
    setup = setup_table(setups)
    target = targets(rows)
    markdown = args.markdown or os.path.join(args.out, "tables.md")
    with open(markdown, "w") as handle:
        handle.write("## Targets\n\n" + target + "\n## Results\n\n" + tables + "\n")
        if setup:
            handle.write("## Set-up times\n\n" + setup)
    print(f"plot.py: wrote {markdown} ({len(rows)} result rows, {len(setups)} set-up rows)")
    if args.results_md:
        write_results_page(args, rows, figures, tables, setup, target)
        print(f"plot.py: wrote {args.results_md}")


def oversubscription_caveat(cores, processes):
    used = ", ".join(map(str, processes)) or "several"
    over = [p for p in processes if p > cores]
    if not over:
        return (f"* This machine has {cores} cores; the runs use {used} MPI processes, one core each at most "
                "(not oversubscribed, not pinned). Read ratios rather than microseconds, and expect a few "
                "percent of run-to-run variation.")
    return (f"* This machine has {cores} cores; the runs use {used} MPI processes, so ranks "
            f"{'are' if len(over) == len(processes) else 'of the runs with ' + ', '.join(map(str, over)) + ' processes are'} "
            "**oversubscribed** and time-share cores. Every message costs a context switch as well as its "
            "transfer, which favours algorithms with fewer messages (message combining) more than a real machine "
            "with a core per rank would, and makes times noisy: read ratios, not microseconds, and expect a few "
            "percent of run-to-run variation.")


def write_results_page(args, rows, figures, tables, setup, target):
    page_dir = os.path.dirname(os.path.abspath(args.results_md))
    machine = open(args.machine).read().strip() if args.machine and os.path.exists(args.machine) else ""
    skipped = []
    if args.skipped and os.path.exists(args.skipped):
        skipped = [line.rstrip() for line in open(args.skipped) if line.strip()]
    processes = sorted({r["processes"] for r in rows if r["processes"]})
    transports = sorted({r["transport"] for r in rows})
    out = [f"# {args.title}", "",
           "*Generated by `scripts/bench-suite.sh` (via `bench/plot.py`); do not edit by hand. "
           "Methodology: [benchmarking.md](benchmarking.md).*", ""]
    if machine:
        out += ["## Machine", "", machine, ""]
    out += ["## Caveats", "", oversubscription_caveat(args.cores, processes),
            "* \"Open MPI over TCP\" is TCP over the loopback interface: it has the per-message software cost "
            "of a network stack but no wire, no switch and no bandwidth limit; it is not a cluster network.",
            "* Transports in this run: " + ", ".join(f"`{t}`" for t in transports) + ". `sm` is Open MPI's "
            "shared-memory BTL (`vader`); `ch4-ucx` is MPICH with the `ucx_yield` shim preloaded so that "
            "busy-polling ranks give up the core, which changes its timing.",
            "* Messages and bytes per call are PMPI counts (maximum over processes) and are exact; for `mpi-*` "
            "rows they are the direct pattern's count. Times are medians after Tukey's 3×IQR outlier removal "
            "(see benchmarking.md).", ""]
    if skipped:
        out += ["Steps that did not run (the program lacked an option, or the step failed):", ""]
        out += [f"* {line}" for line in skipped] + [""]
    out += ["## Targets", "", target, ""]
    if os.path.exists(os.path.join(page_dir, "performance.md")):
        out += ["Why targets are missed on this machine, and what would close them: "
                "[performance.md](performance.md).", ""]
    if figures:
        out += ["## Figures", ""]
        for (op, size_rule, transport, library), path in figures:
            rel = os.path.relpath(os.path.abspath(path), page_dir)
            out += [f"![{op} {size_rule} {transport} {short_library(library)}]({rel})", ""]
    out += ["## Tables", "", tables, ""]
    if setup:
        out += ["## Set-up times", "", setup, ""]
    with open(args.results_md, "w") as handle:
        handle.write("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    main()
