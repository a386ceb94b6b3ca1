// SPDX-License-Identifier: BSD-3-Clause
#include "graph_traffic.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "block_buffers.hpp"
#include "cartcoll/neighbor.h"
#include "graph_checks.hpp"
#include "cart_fixture.hpp"

namespace support {

using cartcoll::Graph;

MPI_Comm create_adjacent(const Graph& graph, MPI_Info info, int* code) {
  const int rank = world_rank();
  const std::vector<int>& in = graph.sources(rank);
  const std::vector<int>& out = graph.destinations(rank);
  MPI_Comm comm = MPI_COMM_NULL;
  const int result = CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                                                   static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, info, 0, &comm);
  if (code != nullptr) *code = result;
  else EXPECT_EQ(result, MPI_SUCCESS);
  return comm;
}

Graph dense_graph(unsigned seed) {
  Graph graph = shared_graph(seed, 4);
  for (int from = 0; from < graph.size(); ++from)
    for (int to = 0; to < graph.size(); ++to)
      if (to != from) {
        graph.destinations(from).push_back(to);
        graph.sources(to).push_back(from);
      }
  return graph;
}

long long direct_messages(const Graph& graph) {
  long long messages = 0;
  for (int from = 0; from < graph.size(); ++from)
    for (int to : graph.destinations(from)) messages += to != from ? 1 : 0;
  return messages;
}

void every_operation_and_form(MPI_Comm comm, unsigned seed, Sizes sizes, Pairing pairing,
                              std::span<const Variant> variants) {
  const TestTypes types;
  const Graph graph = gather_topology(comm);
  ASSERT_EQ(graph.inconsistency(), "");
  for (Op op : neighbor_ops)
    for (Variant variant : variants) {
      GraphCase exchange(op, variant, sizes, types, graph, world_rank(), seed, pairing);
      run_all_forms(exchange, comm, (seed + static_cast<unsigned>(world_rank())) % 2 == 1);
    }
}

Sent regular_calls(const Graph& graph, MPI_Comm comm) {
  const int p = world_size(), rank = world_rank();
  const std::vector<int>& sources = graph.sources(rank);
  const std::size_t blocks = std::max<std::size_t>(static_cast<std::size_t>(p), 1);
  std::vector<int> send(blocks), recv(blocks, -1);
  for (std::size_t j = 0; j < blocks; ++j) send[j] = 100 * rank + static_cast<int>(j);
  Sent sent;
  for (const bool gather : {false, true}) {
    const Sent call = sent_by_processes([&] {
      ASSERT_EQ(gather ? CC_Neighbor_allgather(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm)
                       : CC_Neighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm),
                MPI_SUCCESS);
    });
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const std::vector<int>& theirs = graph.destinations(sources[i]);
      const auto at = static_cast<int>(std::find(theirs.begin(), theirs.end(), rank) - theirs.begin());
      EXPECT_EQ(recv[i], 100 * sources[i] + (gather ? 0 : at)) << (gather ? "allgather" : "alltoall") << " block " << i;
    }
    sent.total += call.total;
    sent.most += call.most;
  }
  return sent;
}

long long checked_messages(MPI_Comm comm, const Graph& graph, Op op, unsigned seed, Sizes sizes) {
  const TestTypes types;
  GraphCase exchange(op, Variant::plain, sizes, types, graph, world_rank(), seed);
  exchange.prepare(static_cast<int>(seed));
  const long long sent =
      messages_everywhere([&] { ASSERT_EQ(exchange.call(Form::blocking, comm, nullptr), MPI_SUCCESS) << exchange.describe(); });
  EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
  return sent;
}

Profile::Profile(const std::string& figures) : path_("/tmp/cartcoll-test-profile-" + std::to_string(getppid())) {
  if (world_rank() == 0) std::ofstream(path_) << figures << "\n";
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("CARTCOLL_PROFILE", path_.c_str(), 1);
}

Profile::~Profile() {
  unsetenv("CARTCOLL_PROFILE");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(path_.c_str());
}

}  // namespace support
