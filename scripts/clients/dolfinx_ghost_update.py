# SPDX-License-Identifier: BSD-3-Clause
"""DOLFINx's ghost updates, checked: every ghost must hold what its owner wrote, every reverse sum
must be exact.

A function's vector (`Function.x`, a `dolfinx.la.Vector`) is updated by DOLFINx's Scatterer: one
MPI_Ineighbor_alltoallv on the index map's distributed graph and its MPI_Wait per update. For a
scalar P2 space and a vector P1 space (block size 3) on a unit cube distributed over the processes,
each iteration
  1. sets the owned entries from the global index, the component and the iteration, runs
     scatter_forward, and checks every ghost entry against the value its owner set;
  2. sets the ghost entries from the writing rank, the global index and the iteration, runs
     scatter_reverse(add), and checks every owned entry against its value plus the sum of what each
     process ghosting it wrote (who ghosts what is gathered once, with MPI_Allgather).
All values are integers below 2**53, so the sums are exact. A mismatch prints the entry and aborts
with exit code 1. The summary depends only on the partition, never on timing; --timing adds a line
with the time spent in the updates (the slowest process's).
Usage: mpirun -n P python3 dolfinx_ghost_update.py [--cells N] [--iterations K] [--timing]
"""
import argparse
import sys
import time

import numpy as np
from mpi4py import MPI

from dolfinx import fem, la, mesh


def fail(comm, space_name, what, iteration, local_index, got, expected):
    print(f"MISMATCH rank {comm.rank} {space_name} {what} iteration {iteration} local entry {local_index}: "
          f"got {got!r}, expected {expected!r}", flush=True)
    comm.Abort(1)


def entry_values(global_blocks, bs, iteration, scale):
    """What an entry holds in an iteration: from its global block index and component."""
    components = np.arange(bs, dtype=np.int64)
    index = (global_blocks[:, None] * bs + components[None, :]).reshape(-1)
    return (index * scale + iteration).astype(np.float64)


def ghosters(comm, index_map):
    """For each owned block: how many other processes ghost it, and the sum of their ranks + 1."""
    start, end = index_map.local_range
    count = np.zeros(end - start, dtype=np.int64)
    rank_sum = np.zeros(end - start, dtype=np.int64)
    for rank, ghosts in enumerate(comm.allgather(index_map.ghosts)):
        mine = ghosts[(ghosts >= start) & (ghosts < end)] - start
        np.add.at(count, mine, 1)
        np.add.at(rank_sum, mine, rank + 1)
    return count, rank_sum


class Timer:
    def __init__(self):
        self.seconds = 0.0
        self.calls = 0

    def run(self, update):
        started = time.perf_counter()
        update()
        self.seconds += time.perf_counter() - started
        self.calls += 1


def check_space(comm, name, space, iterations, forward, reverse):
    index_map, bs = space.dofmap.index_map, space.dofmap.index_map_bs
    x = fem.Function(space).x
    start, end = index_map.local_range
    owned_blocks = np.arange(start, end, dtype=np.int64)
    ghost_blocks = np.asarray(index_map.ghosts, dtype=np.int64)
    n_owned = (end - start) * bs
    count, rank_sum = ghosters(comm, index_map)
    count, rank_sum = np.repeat(count, bs), np.repeat(rank_sum, bs)
    scale = 1 << 8  # leaves room for 200 iterations in the low bits
    contribution_rank = 1 << 40  # a rank's share, above every index * scale + iteration
    values = x.array
    for iteration in range(iterations):
        owned = entry_values(owned_blocks, bs, iteration, scale)
        values[:n_owned] = owned
        values[n_owned:] = -1.0
        forward.run(x.scatter_forward)
        expected = entry_values(ghost_blocks, bs, iteration, scale)
        wrong = np.flatnonzero(values[n_owned:] != expected)
        if wrong.size:
            i = wrong[0]
            fail(comm, name, "scatter_forward", iteration, n_owned + i, values[n_owned + i], expected[i])

        values[n_owned:] = (comm.rank + 1) * contribution_rank + expected
        reverse.run(lambda: x.scatter_reverse(la.ScatterMode.add))
        expected = owned + rank_sum * contribution_rank + count * owned
        wrong = np.flatnonzero(values[:n_owned] != expected)
        if wrong.size:
            i = wrong[0]
            fail(comm, name, "scatter_reverse(add)", iteration, i, values[i], expected[i])
    ghosts = comm.allreduce(len(ghost_blocks) * bs)
    print_root(comm, f"{name}: {index_map.size_global * bs} entries, {ghosts} ghost entries, "
               f"{iterations} iterations: scatter_forward and scatter_reverse(add) exact")


def print_root(comm, line):
    if comm.rank == 0:
        print(line, flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", type=int, default=10, help="cells per edge of the unit cube")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--timing", action="store_true")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    msh = mesh.create_unit_cube(comm, args.cells, args.cells, args.cells)
    print_root(comm, f"ghost updates on {comm.size} processes, unit cube of {args.cells}^3 x 6 tetrahedra")
    forward, reverse = Timer(), Timer()
    check_space(comm, "P2 scalar", fem.FunctionSpace(msh, ("Lagrange", 2)), args.iterations, forward, reverse)
    check_space(comm, "P1 vector (block size 3)", fem.VectorFunctionSpace(msh, ("Lagrange", 1)), args.iterations,
                forward, reverse)
    if args.timing:
        slowest = comm.allreduce(forward.seconds + reverse.seconds, op=MPI.MAX)
        calls = forward.calls + reverse.calls
        print_root(comm, f"timing: {calls} updates, {slowest:.4f} s, {1e6 * slowest / calls:.1f} us per update "
                   "(slowest process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
