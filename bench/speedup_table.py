#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The speed-up of cartcoll over MPI_Neighbor_* in one plain-text table, from cartcoll-bench CSVs.

    python3 bench/speedup_table.py results.csv [more.csv ...]

One row per transport and block size, one column per collective and neighborhood. A cell is MPI's
median time divided by cartcoll's (above 1: cartcoll is faster), cartcoll being what a program gets
by default: `auto` (cart-auto on Cartesian neighborhoods, cc-auto on graphs), else the trivial
schedule where a run measured no auto. Standard library only (no matplotlib), so that it prints
wherever the benchmark ran.
"""
import csv
import re
import sys
from collections import OrderedDict

BASELINE = "mpi-neighbor"
# What a program gets without choosing, in order of preference.
CARTCOLL = ["cart-auto", "cc-auto", "cart-trivial", "cc-trivial"]
TRANSPORTS = {"sm": "shared memory", "tcp-loopback": "TCP loopback", "ch4-ucx": "ch4:ucx"}


def mpi_name(library):
    """'Open MPI v4.1.4, package: ...' -> 'Open MPI 4.1.4'; 'MPICH Version: 4.0.2 ...' -> 'MPICH 4.0.2'."""
    for name in ("Open MPI", "MPICH"):
        if name in library:
            version = re.search(r"(\d+\.\d+(\.\d+)?)", library)
            return name + (" " + version.group(1) if version else "")
    return library.split(",")[0]


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


def speedups(rows):
    """{(transport, size): {column: speed-up}}, the columns in the order the runs measured them."""
    medians = {}
    columns = OrderedDict()
    processes = set()
    for row in rows:
        if not row["block_elements"].isdigit():  # a header repeated inside concatenated files
            continue
        transport = "%s, %s" % (mpi_name(row["mpi_library"]), TRANSPORTS.get(row["transport"], row["transport"]))
        column = "%s %s" % (row["op"], row["neighborhood"])
        if row["d"] == "0":
            column += " (graph)"
        if row["size_rule"] != "uniform":
            column += " (%s)" % row["size_rule"]
        key = (transport, int(row["block_elements"]), column)
        medians.setdefault(key, {})[row["impl"]] = float(row["median_s"])
        columns[column] = True
        processes.add(row["processes"])
    table = OrderedDict()
    for (transport, size, column), times in sorted(medians.items(), key=lambda item: (item[0][0], item[0][1])):
        ours = next((impl for impl in CARTCOLL if impl in times), None)
        if BASELINE not in times or ours is None or times[ours] <= 0:
            continue
        table.setdefault((transport, size), {})[column] = times[BASELINE] / times[ours]
    used = [c for c in columns if any(c in cells for cells in table.values())]
    return table, used, sorted(processes, key=int)


def render(table, columns, processes):
    if not table:
        return "No speed-up to show: the results have no MPI_Neighbor_* row beside a cartcoll one.\n"
    header_top = ["transport", "elements"] + [c.split(" ", 1)[0] for c in columns]
    header_bottom = ["", "a block"] + [c.split(" ", 1)[1] for c in columns]
    body = [[transport, str(size)] + [("%.2fx" % cells[c]) if c in cells else "-" for c in columns]
            for (transport, size), cells in table.items()]
    widths = [max(len(line[k]) for line in [header_top, header_bottom] + body) for k in range(len(header_top))]

    def line(cells):
        text = cells[0].ljust(widths[0]) + "  " + cells[1].rjust(widths[1])
        return text + "".join("  " + cell.rjust(width) for cell, width in zip(cells[2:], widths[2:]))

    out = ["Speed-up of cartcoll over MPI_Neighbor_*: MPI's median time / cartcoll's, with cartcoll's default",
           "algorithm (auto), %s processes. Above 1x cartcoll is faster; 2.00x means it takes half MPI's time" % (
               " and ".join(processes)),
           "(0.50x as a time ratio).", "",
           line(header_top), line(header_bottom)]
    previous = None
    for row in body:
        if previous is not None and row[0] != previous:
            out.append("")
        out.append(line(row if row[0] != previous else [""] + row[1:]))
        previous = row[0]
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    table, columns, processes = speedups(read_rows(argv[1:]))
    sys.stdout.write(render(table, columns, processes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
