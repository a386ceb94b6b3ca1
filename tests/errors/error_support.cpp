// SPDX-License-Identifier: BSD-3-Clause
#include "error_support.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_checks.hpp"
#include "cartcoll/cartcoll.h"

using namespace support;

namespace errors {

namespace {

int previous_rank() { return (world_rank() + world_size() - 1) % world_size(); }
int next_rank() { return (world_rank() + 1) % world_size(); }

constexpr int ring_offsets[] = {-1, 1};

}  // namespace

MPI_Comm graph_comm(unsigned seed) {
  MPI_Comm comm = mpi_adjacent(shared_graph(seed));
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return comm;
}

MPI_Comm ring_comm() {
  const int source[] = {previous_rank()}, destination[] = {next_rank()};
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, source, MPI_UNWEIGHTED, 1, destination, MPI_UNWEIGHTED,
                                           MPI_INFO_NULL, 0, &comm),
            MPI_SUCCESS);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return comm;
}

int ring_adjacent(AdjacentCreate create, MPI_Comm* graph) {
  const int sources[] = {previous_rank(), next_rank()}, destinations[] = {next_rank(), previous_rank()};
  return create(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, destinations, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, graph);
}

int cart_ring(std::initializer_list<int> offsets, MPI_Comm* ring) {
  const int dimensions[] = {world_size()}, periods[] = {1};
  return Cart_neighborhood_create(MPI_COMM_WORLD, 1, dimensions, periods, static_cast<int>(offsets.size()),
                                  offsets.begin(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, ring);
}

MPI_Comm cart_ring() {
  MPI_Comm ring = MPI_COMM_NULL;
  EXPECT_EQ(cart_ring({ring_offsets[0], ring_offsets[1]}, &ring), MPI_SUCCESS);
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  return ring;
}

bool layer_expected() {
  const char* expect = std::getenv("CARTCOLL_TEST_EXPECT");
  return expect != nullptr && std::string(expect) == "layer";
}

bool layer_in_front() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&MPI_Wait), &info) == 0 || info.dli_fname == nullptr) return false;
  return std::string(info.dli_fname).find("libmpi") == std::string::npos;
}

void expect_usable(MPI_Comm comm, const Api& api) {
  const TestTypes types;
  GraphCase exchange(Op::alltoallv, Variant::mixed_types, Sizes::per_edge, types, gather_topology(comm), world_rank(),
                     17);
  run_all_forms(exchange, comm, false, api);
}

void expect_full_call(MPI_Comm comm, const cartcoll::Graph& graph, Pairing pairing, unsigned seed, const Api& api) {
  const TestTypes types;
  GraphCase exchange(Op::alltoall, Variant::plain, Sizes::per_edge, types, graph, world_rank(), seed, pairing);
  exchange.prepare(0);
  ASSERT_EQ(exchange.call(Form::blocking, comm, nullptr, api), MPI_SUCCESS) << exchange.describe();
  EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
}

void RingBlocks::prepare(int generation) {
  for (int b = 0; b < 2; ++b)
    for (int e = 0; e < 3; ++e)
      send[static_cast<std::size_t>(b * 3 + e)] = generation * 10000 + world_rank() * 100 + b * 10 + e;
  recv.fill(-1);
}

bool RingBlocks::arrived(int generation) const {
  const int p = world_size();
  for (int i = 0; i < 2; ++i)
    for (int e = 0; e < 3; ++e) {
      const int source = ((world_rank() - ring_offsets[i]) % p + p) % p;
      if (recv[static_cast<std::size_t>(i * 3 + e)] != generation * 10000 + source * 100 + i * 10 + e) return false;
    }
  return true;
}

void expect_cart_usable(MPI_Comm ring) {
  RingBlocks blocks;
  blocks.prepare(7);
  const int code = Cart_alltoall(blocks.send.data(), 3, MPI_INT, blocks.recv.data(), 3, MPI_INT, ring);
  expect_class_everywhere(code, MPI_SUCCESS);
  EXPECT_TRUE(blocks.arrived(7)) << "the Cartesian communicator is usable afterwards";
}

}  // namespace errors
