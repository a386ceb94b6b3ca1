// SPDX-License-Identifier: BSD-3-Clause
#include "graph_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>

#include "../graph_cases.hpp"
#include "cart_fixture.hpp"

namespace support {

using cartcoll::Graph;

Graph shared_graph(unsigned seed, int max_out_degree) {
  std::mt19937 rng(seed);
  return cartcoll::test::random_graph(rng, {world_size(), max_out_degree, false});
}

MPI_Comm mpi_adjacent(const Graph& graph) {
  const int rank = world_rank();
  const std::vector<int>& in = graph.sources(rank);
  const std::vector<int>& out = graph.destinations(rank);
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                                           static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                           &comm),
            MPI_SUCCESS);
  return comm;
}

MPI_Comm mpi_graph(unsigned seed) {
  const int p = world_size();
  std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(p));
  auto connect = [&](int a, int b) {
    adjacent[static_cast<std::size_t>(a)].push_back(b);
    if (a != b) adjacent[static_cast<std::size_t>(b)].push_back(a);
  };
  for (int r = 0; r + 1 < p; ++r) connect(r, r + 1);
  const int chord = static_cast<int>(seed) % p;
  connect(0, chord);
  connect(chord, 0);
  connect(0, 0);
  std::vector<int> index, edges;
  for (const auto& list : adjacent) {
    edges.insert(edges.end(), list.begin(), list.end());
    index.push_back(static_cast<int>(edges.size()));
  }
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(MPI_Graph_create(MPI_COMM_WORLD, p, index.data(), edges.data(), 0, &comm), MPI_SUCCESS);
  return comm;
}

MPI_Comm mpi_cart(unsigned seed) {
  const int d = 1 + static_cast<int>(seed % 3);
  std::vector<int> dims(static_cast<std::size_t>(d), 0), periods(dims.size());
  MPI_Dims_create(world_size(), d, dims.data());
  for (int k = 0; k < d; ++k) periods[static_cast<std::size_t>(k)] = static_cast<int>((seed >> k) & 1u);
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(MPI_Cart_create(MPI_COMM_WORLD, d, dims.data(), periods.data(), 0, &comm), MPI_SUCCESS);
  return comm;
}

namespace {

void complete(MPI_Request& request, bool by_test, const Api& api) {
  if (!by_test) {
    ASSERT_EQ(api.wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    return;
  }
  int done = 0;
  while (!done) ASSERT_EQ(api.test(&request, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
}

}  // namespace

void run_all_forms(GraphCase& exchange, MPI_Comm comm, bool by_test, const Api& api) {
  exchange.prepare(0);
  ASSERT_EQ(exchange.call(Form::blocking, comm, nullptr, api), MPI_SUCCESS) << exchange.describe();
  EXPECT_EQ(exchange.mismatch(), "") << "blocking, " << exchange.describe();

  MPI_Request request = MPI_REQUEST_NULL;
  exchange.prepare(1);
  ASSERT_EQ(exchange.call(Form::nonblocking, comm, &request, api), MPI_SUCCESS) << exchange.describe();
  complete(request, by_test, api);
  EXPECT_EQ(request, MPI_REQUEST_NULL) << "a completed nonblocking request is freed";
  EXPECT_EQ(exchange.mismatch(), "") << "nonblocking, " << exchange.describe();

  if (!api.has_persistent()) return;
  exchange.prepare(2);
  ASSERT_EQ(exchange.call(Form::persistent, comm, &request, api), MPI_SUCCESS) << exchange.describe();
  for (int generation = 3; generation <= 4; ++generation) {
    exchange.prepare(generation);
    ASSERT_EQ(api.start(&request), MPI_SUCCESS);
    complete(request, by_test != (generation == 4), api);
    EXPECT_NE(request, MPI_REQUEST_NULL) << "a persistent request survives its completion";
    EXPECT_EQ(exchange.mismatch(), "") << "persistent cycle " << generation << ", " << exchange.describe();
  }
  ASSERT_EQ(api.request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
}

void expect_every_neighbor_op_exact(MPI_Comm comm, unsigned seed) {
  const Graph graph = gather_topology(comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const TestTypes types;
  for (Op op : neighbor_ops) {
    GraphCase exchange(op, Variant::plain, Sizes::per_edge, types, graph, rank, seed);
    exchange.prepare(static_cast<int>(op));
    ASSERT_EQ(exchange.call(Form::blocking, comm, nullptr), MPI_SUCCESS) << exchange.describe();
    EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
  }
}

void RingMessage::start(MPI_Request* requests, int generation) {
  const int p = world_size(), rank = world_rank();
  out = generation * 1000 + rank;
  MPI_Irecv(&in, 1, MPI_INT, (rank + p - 1) % p, 77, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(&out, 1, MPI_INT, (rank + 1) % p, 77, MPI_COMM_WORLD, &requests[1]);
}

bool RingMessage::arrived(int generation) const {
  return in == generation * 1000 + (world_rank() + world_size() - 1) % world_size();
}

std::vector<int> rank_order(int n, unsigned salt) {
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(static_cast<unsigned>(world_rank()) * 7919u + salt);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

const char* name(Completion how) {
  static const char* names[] = {"waitall", "waitany", "waitsome", "testall", "testany", "testsome", "test", "get_status"};
  return names[static_cast<int>(how)];
}

namespace {

// Index `index` came back: once only.
void returned(std::vector<bool>& seen, int index, Completion how) {
  ASSERT_GE(index, 0) << name(how);
  ASSERT_LT(index, static_cast<int>(seen.size())) << name(how);
  ASSERT_FALSE(seen[static_cast<std::size_t>(index)]) << name(how) << " returned index " << index << " twice";
  seen[static_cast<std::size_t>(index)] = true;
}

// Waitany or Testany until MPI_UNDEFINED: every index once.
void complete_each_by_any(std::vector<MPI_Request>& requests, Completion how, const Api& api) {
  const int n = static_cast<int>(requests.size());
  std::vector<bool> seen(requests.size());
  for (;;) {
    int index = -1, flag = 1;
    if (how == Completion::waitany)
      ASSERT_EQ(api.waitany(n, requests.data(), &index, MPI_STATUS_IGNORE), MPI_SUCCESS);
    else
      ASSERT_EQ(api.testany(n, requests.data(), &index, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
    if (!flag) continue;
    if (index == MPI_UNDEFINED) break;
    returned(seen, index, how);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), n) << name(how) << ": MPI_UNDEFINED before every index came back";
}

// Waitsome or Testsome until MPI_UNDEFINED: every index once.
void complete_each_by_some(std::vector<MPI_Request>& requests, Completion how, const Api& api) {
  const int n = static_cast<int>(requests.size());
  std::vector<bool> seen(requests.size());
  std::vector<int> indices(requests.size());
  std::vector<MPI_Status> statuses(requests.size());
  for (;;) {
    int outcount = -1;
    const auto some = how == Completion::waitsome ? api.waitsome : api.testsome;
    ASSERT_EQ(some(n, requests.data(), &outcount, indices.data(), statuses.data()), MPI_SUCCESS);
    if (outcount == MPI_UNDEFINED) break;
    if (how == Completion::waitsome) ASSERT_GT(outcount, 0) << "waitsome returned nothing";
    for (int k = 0; k < outcount; ++k) returned(seen, indices[static_cast<std::size_t>(k)], how);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), n) << name(how) << ": MPI_UNDEFINED before every index came back";
}

void complete_one_by_one(std::vector<MPI_Request>& requests, Completion how, unsigned salt, const Api& api) {
  for (int i : rank_order(static_cast<int>(requests.size()), salt)) {
    MPI_Request& request = requests[static_cast<std::size_t>(i)];
    int done = 0;
    if (how == Completion::test) {
      while (!done) ASSERT_EQ(api.test(&request, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
      continue;
    }
    while (!done) ASSERT_EQ(api.request_get_status(request, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
    ASSERT_EQ(api.wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  }
}

}  // namespace

void complete_all(std::vector<MPI_Request>& requests, Completion how, unsigned salt, const Api& api) {
  const int n = static_cast<int>(requests.size());
  switch (how) {
    case Completion::waitall: {
      std::vector<MPI_Status> statuses(requests.size());
      ASSERT_EQ(api.waitall(n, requests.data(), statuses.data()), MPI_SUCCESS);
      break;
    }
    case Completion::testall: {
      int done = 0;
      while (!done) ASSERT_EQ(api.testall(n, requests.data(), &done, MPI_STATUSES_IGNORE), MPI_SUCCESS);
      break;
    }
    case Completion::waitany:
    case Completion::testany: complete_each_by_any(requests, how, api); break;
    case Completion::waitsome:
    case Completion::testsome: complete_each_by_some(requests, how, api); break;
    case Completion::test:
    case Completion::get_status: complete_one_by_one(requests, how, salt, api); break;
  }
}

void nonblocking_mixed_with_plain(MPI_Comm graph_comm, MPI_Comm cart_comm, const Api& api) {
  const TestTypes types;
  const Graph graph = gather_topology(graph_comm), cart = gather_topology(cart_comm);
  unsigned salt = 0;
  for (Completion how : all_completions) {
    std::vector<std::unique_ptr<GraphCase>> cases;
    std::vector<MPI_Request> started;
    for (Op op : neighbor_ops) cases.push_back(std::make_unique<GraphCase>(op, Variant::plain, Sizes::per_edge, types, graph, world_rank(), 3));
    for (Op op : {Op::alltoallv, Op::allgather}) cases.push_back(std::make_unique<GraphCase>(op, Variant::mixed_types, Sizes::per_edge, types, cart, world_rank(), 4, Pairing::cartesian));
    for (std::size_t c = 0; c < cases.size(); ++c) {
      cases[c]->prepare(static_cast<int>(salt) + 1);
      started.push_back(MPI_REQUEST_NULL);
      ASSERT_EQ(cases[c]->call(Form::nonblocking, c < 5 ? graph_comm : cart_comm, &started.back(), api), MPI_SUCCESS);
    }
    RingMessage ring;
    started.resize(started.size() + 2, MPI_REQUEST_NULL);
    ring.start(&started[started.size() - 2], static_cast<int>(salt) + 1);
    std::vector<MPI_Request> requests;
    for (int i : rank_order(static_cast<int>(started.size()), ++salt)) requests.push_back(started[static_cast<std::size_t>(i)]);
    complete_all(requests, how, salt, api);
    for (MPI_Request request : requests) EXPECT_EQ(request, MPI_REQUEST_NULL) << name(how);
    for (const auto& exchange : cases) EXPECT_EQ(exchange->mismatch(), "") << name(how) << ", " << exchange->describe();
    EXPECT_TRUE(ring.arrived(static_cast<int>(salt))) << "the plain MPI message, " << name(how);
  }
}

void persistent_mixed_with_plain(MPI_Comm comm, const Api& api) {
  const TestTypes types;
  const Graph graph = gather_topology(comm);
  std::vector<std::unique_ptr<GraphCase>> cases;
  std::vector<MPI_Request> requests;
  for (Op op : neighbor_ops) {
    cases.push_back(std::make_unique<GraphCase>(op, Variant::mixed_types, Sizes::per_edge, types, graph, world_rank(), 5));
    cases.back()->prepare(0);
    requests.push_back(MPI_REQUEST_NULL);
    ASSERT_EQ(cases.back()->call(Form::persistent, comm, &requests.back(), api), MPI_SUCCESS);
  }
  // Two plain persistent requests: a message from this process to itself. (Not to MPI_PROC_NULL:
  // MPICH 4.0.2's MPI_Testany and MPI_Waitany take such a request, started, for an inactive one.)
  int self_value = 0, self_received = -1;
  requests.resize(requests.size() + 2, MPI_REQUEST_NULL);
  MPI_Send_init(&self_value, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &requests[requests.size() - 2]);
  MPI_Recv_init(&self_received, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &requests[requests.size() - 1]);
  int generation = 1;
  for (Completion how : all_completions) {
    for (auto& exchange : cases) exchange->prepare(generation);
    self_value = generation;
    ASSERT_EQ(api.startall(static_cast<int>(requests.size()), requests.data()), MPI_SUCCESS);
    std::vector<MPI_Request> shuffled;
    const std::vector<int> order = rank_order(static_cast<int>(requests.size()), static_cast<unsigned>(generation));
    for (int i : order) shuffled.push_back(requests[static_cast<std::size_t>(i)]);
    complete_all(shuffled, how, static_cast<unsigned>(generation), api);
    for (std::size_t k = 0; k < order.size(); ++k)
      EXPECT_EQ(shuffled[k], requests[static_cast<std::size_t>(order[k])]) << "persistent requests stay allocated";
    for (const auto& exchange : cases) EXPECT_EQ(exchange->mismatch(), "") << name(how) << ", " << exchange->describe();
    EXPECT_EQ(self_received, generation) << "the plain persistent message, " << name(how);
    ++generation;
  }
  for (MPI_Request& request : requests) ASSERT_EQ(api.request_free(&request), MPI_SUCCESS);
}

}  // namespace support
