// SPDX-License-Identifier: BSD-3-Clause
// The Cartesian half of the planner fuzzer: a grid, a neighborhood, a collective, block sizes and a
// node size; every Cartesian planner (node-combining across the drawn nodes) against the reference.
#include <cstddef>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "../describe.hpp"
#include "core/planning/plan.hpp"
#include "cartcoll/topology.hpp"
#include "fuzz_cases.hpp"

namespace cartcoll::fuzz {

namespace {

struct CartesianCase {
  std::vector<int> dims;
  std::vector<bool> periodic;
  int t = 0;
  std::vector<int> flat;  // t * d offset coordinates
  Collective collective = Collective::alltoall;
  std::vector<std::size_t> recv_sizes;  // per block index, the same on every process
  std::size_t send_size = 0;            // allgather's one send block
  int node_size = 0;
};

CartesianCase decode(Reader& in) {
  CartesianCase c;
  const int d = 1 + in.next(4);
  int processes = 1;
  for (int k = 0; k < d; ++k) {
    const int b = in.next(256);
    int extent = 1 + b % 5;
    if (processes * extent > 64) extent = 64 / processes;
    processes *= extent;
    c.dims.push_back(extent);
    c.periodic.push_back((b / 5) % 2 == 1);
  }
  c.t = in.next(13);
  for (int i = 0; i < c.t * d; ++i) c.flat.push_back(in.next(13) - 6);
  c.collective = in.next(2) == 0 ? Collective::alltoall : Collective::allgather;
  if (c.collective == Collective::alltoall) {
    for (int i = 0; i < c.t; ++i) c.recv_sizes.push_back(static_cast<std::size_t>(in.next(5)));
  } else {
    c.send_size = static_cast<std::size_t>(in.next(5));
    c.recv_sizes.assign(static_cast<std::size_t>(c.t), c.send_size);
  }
  c.node_size = in.next(processes + 1);
  return c;
}

std::string describe(const CartesianCase& c) {
  const Grid grid(c.dims, c.periodic);
  const Offsets offsets(static_cast<int>(c.dims.size()), c.flat);
  std::ostringstream out;
  out << test::describe(grid, offsets) << ", " << (c.collective == Collective::alltoall ? "alltoall" : "allgather")
      << ", block sizes [";
  for (std::size_t i = 0; i < c.recv_sizes.size(); ++i) out << (i ? " " : "") << c.recv_sizes[i];
  out << "], node size " << c.node_size;
  return out.str();
}

}  // namespace

void fuzz_cartesian(std::span<const std::uint8_t> input, Reader& in, bool print) {
  const CartesianCase c = decode(in);
  const Decoded decoded{input, describe(c)};
  if (print) std::fprintf(stderr, "case: %s\n", decoded.description.c_str());
  const Grid grid(c.dims, c.periodic);
  const Offsets offsets(static_cast<int>(c.dims.size()), c.flat);
  const int p = grid.size();

  reference::Blocks send(static_cast<std::size_t>(p)), recv(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    auto& mine = send[static_cast<std::size_t>(r)];
    if (c.collective == Collective::alltoall)
      for (int i = 0; i < c.t; ++i) mine.push_back(fill(0x5E4Du, r, i, c.recv_sizes[static_cast<std::size_t>(i)]));
    else
      mine.push_back(fill(0x5E4Du, r, 0, c.send_size));
    for (int i = 0; i < c.t; ++i)
      recv[static_cast<std::size_t>(r)].push_back(fill(0xA5E7u, r, i, c.recv_sizes[static_cast<std::size_t>(i)]));
  }
  const reference::Blocks want = reference::exchange(grid, offsets, c.collective, send, recv);

  for (const PlannerEntry& entry : planners()) {
    if (!entry.serves(NeighborhoodKind::cartesian) || !entry.serves(c.collective) || entry.plans_shared_sends) continue;
    prove(decoded, std::string(entry.name), c.collective, send, recv, want, [&] {
      std::vector<Schedule> schedules;
      for (int r = 0; r < p; ++r) {
        const std::vector<int> coords = grid.coords_of(r);
        schedules.push_back(plan(Algorithm::named(entry.name), {grid, offsets, coords, c.node_size}, c.collective));
      }
      return schedules;
    });
  }
}

}  // namespace cartcoll::fuzz
