# SPDX-License-Identifier: BSD-3-Clause
"""A Poisson problem solved by DOLFINx on a mesh distributed over the processes, as its demo does.

-Δu = f on the unit square, u = 0 on x = 0 and x = 1, ∂u/∂n = g on the rest of the boundary, with
the demo's f and g, P2 elements, assembled into PETSc and solved by CG with a Jacobi preconditioner.
PETSc runs with -sf_type neighbor, so that its ghost updates of the solver's vectors (PetscSF) go
through MPI_Ineighbor_alltoallv too, beside DOLFINx's own (index maps, mesh distribution, the
solution's scatter_forward).
Prints the iteration count, the solution's L2 and H1 seminorms, its extremes and its values at a few
points that are degrees of freedom, to 8 significant digits: enough to catch a wrong message, few
enough that a difference in the last bits (PETSc adds off-process matrix contributions in message
arrival order) does not show.
Usage: mpirun -n P python3 dolfinx_poisson.py [--cells N]
"""
import argparse
import sys

import petsc4py

petsc4py.init([sys.argv[0], "-sf_type", "neighbor"])

import numpy as np  # noqa: E402
import ufl  # noqa: E402
from mpi4py import MPI  # noqa: E402
from petsc4py import PETSc  # noqa: E402

from dolfinx import fem, mesh  # noqa: E402
from dolfinx.fem.petsc import LinearProblem  # noqa: E402


def solve(msh):
    V = fem.FunctionSpace(msh, ("Lagrange", 2))
    facets = mesh.locate_entities_boundary(
        msh, dim=1, marker=lambda x: np.logical_or(np.isclose(x[0], 0.0), np.isclose(x[0], 1.0)))
    dofs = fem.locate_dofs_topological(V=V, entity_dim=1, entities=facets)
    bc = fem.dirichletbc(value=PETSc.ScalarType(0), dofs=dofs, V=V)
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    x = ufl.SpatialCoordinate(msh)
    f = 10 * ufl.exp(-((x[0] - 0.5) ** 2 + (x[1] - 0.5) ** 2) / 0.02)
    g = ufl.sin(5 * x[0])
    a = ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
    L = ufl.inner(f, v) * ufl.dx + ufl.inner(g, v) * ufl.ds
    problem = LinearProblem(a, L, bcs=[bc], petsc_options={
        "ksp_type": "cg", "pc_type": "jacobi", "ksp_rtol": 1e-12, "ksp_max_it": 2000})
    uh = problem.solve()
    return V, uh, problem.solver


def global_sum(comm, form):
    return comm.allreduce(fem.assemble_scalar(fem.form(form)), op=MPI.SUM)


def value_at(comm, V, uh, point):
    """The solution at a point that is a degree of freedom, from the process that owns it."""
    owned = V.dofmap.index_map.size_local
    coordinates = V.tabulate_dof_coordinates()[:owned, :2]
    match = np.flatnonzero(np.all(np.isclose(coordinates, point), axis=1))
    values = comm.allgather(uh.x.array[match[0]] if match.size else None)
    found = [value for value in values if value is not None]
    assert len(found) == 1, f"{len(found)} processes own the point {point}"
    return found[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", type=int, default=32, help="cells per edge of the unit square")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    msh = mesh.create_unit_square(comm, args.cells, args.cells, mesh.CellType.triangle)
    V, uh, solver = solve(msh)
    l2 = np.sqrt(global_sum(comm, uh * uh * ufl.dx))
    h1 = np.sqrt(global_sum(comm, ufl.inner(ufl.grad(uh), ufl.grad(uh)) * ufl.dx))
    owned = uh.x.array[:V.dofmap.index_map.size_local]
    low = comm.allreduce(owned.min(initial=np.inf), op=MPI.MIN)
    high = comm.allreduce(owned.max(initial=-np.inf), op=MPI.MAX)
    points = [(0.5, 0.5), (0.25, 0.75), (0.75, 0.125), (0.5, 1.0)]
    values = [value_at(comm, V, uh, point) for point in points]
    if comm.rank == 0:
        print(f"Poisson, P2 on a {args.cells}x{args.cells} unit square, {comm.size} processes: "
              f"{V.dofmap.index_map.size_global} dofs")
        print(f"CG iterations {solver.getIterationNumber()}, converged reason {solver.getConvergedReason()}")
        print(f"||u||_L2 = {l2:.8e}  |u|_H1 = {h1:.8e}  min {low:.8e}  max {high:.8e}")
        for point, value in zip(points, values):
            print(f"u({point[0]:.3f}, {point[1]:.3f}) = {value:.8e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
