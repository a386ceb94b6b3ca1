// SPDX-License-Identifier: BSD-3-Clause
// Persistent alltoallw whose send blocks share bytes (the unified-interfaces paper by Träff, Hunold,
// Mercier and Holmes, section 3.5): the 9-point halo of its Figure 1 and a 27-point halo with rows,
// columns, faces, edges and corners as datatypes over one array; random overlapping datatypes
// (vectors, indexed types, structs with a negative lower bound, typemaps that run backwards) over
// random Cartesian neighborhoods (tori, meshes, repeated and zero offsets); processes whose blocks
// differ; blocks that share nothing. Every result is checked against the plain exchange's meaning,
// computed here from the senders' buffers (whose bytes depend on sender rank, address and start) and
// each block's datatypes, after every start, under `overlap-combining`, `auto` and `combining`.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/halo_case.hpp"
#include "../support/profile_file.hpp"
#include "../support/watchdog.hpp"
#include "api/introspection.hpp"
#include "cartcoll/cartcoll.h"
#include "cartcoll/iso.h"

using support::HaloCase;
using support::stencil_halo;

namespace {

MPI_Comm neighborhood(const HaloCase& halo, MPI_Info info = MPI_INFO_NULL) {
  MPI_Comm cart = MPI_COMM_NULL;
  const int d = static_cast<int>(halo.dims.size());
  EXPECT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, d, halo.dims.data(), halo.periods.data(), halo.blocks(),
                                     halo.offsets.data(), MPI_UNWEIGHTED, info, 0, &cart),
            MPI_SUCCESS);
  return cart;
}

struct Outcome {
  std::string algorithm;
  int messages = 0;
  std::string decided_by;
};

Outcome last_outcome(MPI_Comm cart) {
  const auto last = cartcoll::introspection::last_run(cart);
  return last ? Outcome{last->algorithm, last->messages, last->decided_by} : Outcome{"", -1, ""};
}

// The process each receive block comes from: R - offsets[j], MPI_PROC_NULL off a mesh.
std::vector<int> sources_of(const HaloCase& halo, MPI_Comm cart) {
  const std::size_t d = halo.dims.size();
  std::vector<int> sources;
  for (int j = 0; j < halo.blocks(); ++j) {
    const auto first = halo.offsets.begin() + static_cast<long>(static_cast<std::size_t>(j) * d);
    std::vector<int> offset(first, first + static_cast<long>(d));
    int source = MPI_PROC_NULL, target = MPI_PROC_NULL;
    EXPECT_EQ(Cart_relative_shift(cart, offset.data(), &source, &target), MPI_SUCCESS);
    sources.push_back(source);
  }
  return sources;
}

// Cart_alltoallw_init of `halo` over `send` and `recv` under `algorithm` (empty: the communicator's).
Cart_request init_alltoallw(const HaloCase& halo, MPI_Comm cart, const std::string& algorithm,
                            std::vector<std::uint8_t>& send, std::vector<std::uint8_t>& recv) {
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  if (!algorithm.empty()) MPI_Info_set(info, "cartcoll_algorithm", algorithm.c_str());
  const auto send_types = halo.send_handles(), recv_types = halo.recv_handles();
  Cart_request request = CART_REQUEST_NULL;
  EXPECT_EQ(Cart_alltoallw_init(send.data(), halo.sendcounts.data(), halo.sdispls.data(), send_types.data(),
                                recv.data(), halo.recvcounts.data(), halo.rdispls.data(), recv_types.data(), cart, info,
                                &request),
            MPI_SUCCESS);
  MPI_Info_free(&info);
  return request;
}

// Inits the alltoallw under `algorithm`, starts it three times with new send data, and checks the
// receive buffer after each start.
Outcome run(const HaloCase& halo, MPI_Comm cart, const std::string& algorithm,
            const std::function<const HaloCase&(int)>& sender_case = {}) {
  int rank = 0;
  MPI_Comm_rank(cart, &rank);
  std::vector<std::uint8_t> send(halo.send_bytes), recv(halo.recv_bytes, 0xee);
  const std::vector<int> sources = sources_of(halo, cart);
  Cart_request request = init_alltoallw(halo, cart, algorithm, send, recv);
  const Outcome outcome = last_outcome(cart);
  for (int start = 1; start <= 3; ++start) {
    const std::vector<std::uint8_t> values = halo.send_array(rank, start);
    std::copy(values.begin(), values.end(), send.begin());  // the same buffer: the request holds its address
    std::vector<std::uint8_t> expected = recv;
    halo.expect_plain_result(sources, start, expected, sender_case);
    EXPECT_EQ(Cart_start(&request), MPI_SUCCESS);
    EXPECT_EQ(Cart_wait(&request), MPI_SUCCESS);
    std::size_t first = 0;
    while (first < recv.size() && recv[first] == expected[first]) ++first;
    EXPECT_EQ(first, recv.size()) << "first difference at byte " << first << " of " << recv.size() << ": "
                                  << int(first < recv.size() ? recv[first] : 0) << " instead of "
                                  << int(first < recv.size() ? expected[first] : 0) << ", " << algorithm << " (ran " << outcome.algorithm << "), start " << start << ", rank " << rank;
  }
  EXPECT_EQ(Cart_request_free(&request), MPI_SUCCESS);
  return outcome;
}


// The most messages a process sends in the parts' schedule: one per dimension and direction.
TEST(SharedSends, TheNinePointHaloSendsItsCornersOnceInFourMessages) {
  support::Watchdog watchdog{"the 9-point halo", std::chrono::seconds(120)};
  const HaloCase halo = stencil_halo(2, 5, 1);
  MPI_Comm cart = neighborhood(halo);
  const Outcome forced = run(halo, cart, "overlap-combining");
  EXPECT_EQ(forced.algorithm, "overlap-combining");
  EXPECT_LE(forced.messages, 4);
  run(halo, cart, "auto");
  run(halo, cart, "combining");
  MPI_Comm_free(&cart);
}

TEST(SharedSends, TheTwentySevenPointHaloTakesSixMessages) {
  support::Watchdog watchdog{"the 27-point halo", std::chrono::seconds(120)};
  for (const int w : {1, 2}) {
    const HaloCase halo = stencil_halo(3, 4, w);
    MPI_Comm cart = neighborhood(halo);
    const Outcome forced = run(halo, cart, "overlap-combining");
    EXPECT_EQ(forced.algorithm, "overlap-combining");
    EXPECT_LE(forced.messages, 6);
    EXPECT_EQ(run(halo, cart, "auto").decided_by, "trial");  // the parts measured against the plain choice
    MPI_Comm_free(&cart);
  }
}

// `auto` weighs the parts' schedule by the cost model: where messages cost and phases do not, the 27-point
// halo sends its shared bytes once (6 messages instead of 26, each byte as often as the direct
// exchange sends it); where phases cost, it runs a plain schedule of one phase.
TEST(SharedSends, AutoWeighsThePartsByTheModel) {
  support::Watchdog watchdog{"auto and the parts", std::chrono::seconds(120)};
  const HaloCase halo = stencil_halo(3, 4, 1);
  for (const bool messages_cost : {true, false}) {
    const std::string profile = support::use_profile(messages_cost ? "1e-9 1e-5 1e-10\n" : "1e-3 1e-9 1e-10\n");
    MPI_Comm cart = neighborhood(halo);
    const Outcome chosen = run(halo, cart, "auto");
    // Where fewer than two dimensions span several processes the parts' schedule communicates in at
    // most one phase (moves along the others are local copies, which the model does not price) and
    // wins either way.
    const auto spread = std::count_if(halo.dims.begin(), halo.dims.end(), [](int size) { return size > 1; });
    if (spread >= 2) EXPECT_EQ(chosen.algorithm == "overlap-combining", messages_cost) << chosen.algorithm;
    EXPECT_EQ(chosen.decided_by, "profile");
    MPI_Comm_free(&cart);
    unsetenv("CARTCOLL_PROFILE");
    MPI_Barrier(MPI_COMM_WORLD);
    if (support::world_rank() == 0) std::remove(profile.c_str());
  }
}

// Forced on a communicator, overlap-combining serves its persistent alltoallw; a blocking call, which
// is not analysed, runs the direct exchange.
TEST(SharedSends, ForcedOnOtherCallsItRunsTheDirectExchange) {
  support::Watchdog watchdog{"other calls", std::chrono::seconds(120)};
  const HaloCase halo = stencil_halo(2, 3, 1);
  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cartcoll_algorithm", "overlap-combining");
  MPI_Comm cart = neighborhood(halo, info);
  MPI_Info_free(&info);
  EXPECT_EQ(run(halo, cart, "").algorithm, "overlap-combining");
  const int rank = support::world_rank();
  std::vector<std::uint8_t> send = halo.send_array(rank, 1), recv(halo.recv_bytes, 0xee), expected(recv);
  const auto send_types = halo.send_handles(), recv_types = halo.recv_handles();
  ASSERT_EQ(Cart_alltoallw(send.data(), halo.sendcounts.data(), halo.sdispls.data(), send_types.data(), recv.data(),
                           halo.recvcounts.data(), halo.rdispls.data(), recv_types.data(), cart),
            MPI_SUCCESS);
  EXPECT_EQ(last_outcome(cart).algorithm, "trivial");
  halo.expect_plain_result(sources_of(halo, cart), 1, expected);
  EXPECT_EQ(recv, expected);
  MPI_Comm_free(&cart);
}

// The isomorphic-collectives paper's persistent interface (Träff, Carpen-Amarie, Hunold and Rougier):
// Iso_neighbor_alltoallw_init on an MPI_Cart_create torus with the 9-point halo's offsets, the
// algorithm chosen by the environment (the interface has no info argument).
TEST(SharedSends, TheIsoInterfaceSendsTheSharedCornersOnce) {
  support::Watchdog watchdog{"the Iso_ interface", std::chrono::seconds(120)};
  const HaloCase halo = stencil_halo(2, 4, 1);
  MPI_Comm cart = MPI_COMM_NULL, iso = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 2, halo.dims.data(), halo.periods.data(), 0, &cart), MPI_SUCCESS);
  ASSERT_EQ(Iso_neighborhood_create(cart, halo.blocks(), halo.offsets.data(), &iso), MPI_SUCCESS);
  int coords[2] = {0, 0};
  MPI_Cart_coords(cart, support::world_rank(), 2, coords);
  std::vector<int> sources;
  for (int j = 0; j < halo.blocks(); ++j) {
    int from[2] = {coords[0] - halo.offsets[2 * j], coords[1] - halo.offsets[2 * j + 1]};
    MPI_Cart_rank(cart, from, &sources.emplace_back());
  }
  std::vector<std::uint8_t> send(halo.send_bytes), recv(halo.recv_bytes, 0xee);
  const auto send_types = halo.send_handles(), recv_types = halo.recv_handles();
  setenv("CARTCOLL_ALGORITHM", "overlap-combining", 1);
  Iso_request request = ISO_REQUEST_NULL;
  ASSERT_EQ(Iso_neighbor_alltoallw_init(send.data(), halo.sendcounts.data(), halo.sdispls.data(), send_types.data(),
                                        recv.data(), halo.recvcounts.data(), halo.rdispls.data(), recv_types.data(), iso,
                                        &request),
            MPI_SUCCESS);
  unsetenv("CARTCOLL_ALGORITHM");
  EXPECT_EQ(last_outcome(iso).algorithm, "overlap-combining");
  for (int start = 1; start <= 3; ++start) {
    const std::vector<std::uint8_t> values = halo.send_array(support::world_rank(), start);
    std::copy(values.begin(), values.end(), send.begin());
    std::vector<std::uint8_t> expected = recv;
    halo.expect_plain_result(sources, start, expected);
    ASSERT_EQ(Iso_start(&request), MPI_SUCCESS);
    EXPECT_EQ(recv, expected) << "start " << start;
  }
  EXPECT_EQ(Iso_request_free(&request), MPI_SUCCESS);
  MPI_Comm_free(&iso);
  MPI_Comm_free(&cart);
}

// A random datatype over a send buffer of `span` bytes, with the receive datatype of the same type
// signature: vectors of ints, indexed shorts, structs of an int and a double with a negative lower
// bound, and chars whose typemap runs backwards.
void add_random_block(HaloCase& halo, std::mt19937& draw, MPI_Aint span, MPI_Aint& recv_at) {
  auto between = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(draw); };
  MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
  MPI_Aint reach = 0, lower = 0, recv_span = 0;
  const int count = between(1, 2);
  switch (between(0, 3)) {
    case 0: {
      const int c = between(1, 4), b = between(1, 3), s = b + between(0, 3);
      MPI_Type_vector(c, b, s, MPI_INT, &send);
      reach = static_cast<MPI_Aint>(((c - 1) * s + b) * 4) * count;
      MPI_Type_vector(c * b * count, 1, 2, MPI_INT, &recv);
      recv_span = static_cast<MPI_Aint>(c * b * count * 8);
      break;
    }
    case 1: {
      const int k = between(1, 4);
      std::vector<int> lengths, displacements;
      for (int i = 0, at = 0; i < k; ++i) {
        at += between(0, 3);
        displacements.push_back(at);
        lengths.push_back(between(1, 3));
        at += lengths.back();
      }
      MPI_Type_indexed(k, lengths.data(), displacements.data(), MPI_SHORT, &send);
      MPI_Aint lb = 0, extent = 0;
      MPI_Type_get_extent(send, &lb, &extent);
      reach = lb + extent * count;
      int elements = 0;
      for (int length : lengths) elements += length;
      MPI_Type_contiguous(elements * count, MPI_SHORT, &recv);
      recv_span = elements * count * 2;
      break;
    }
    case 2: {
      const int lengths[] = {1, 1};
      const MPI_Aint displacements[] = {-8, 4};
      const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
      MPI_Type_create_struct(2, lengths, displacements, types, &send);
      MPI_Aint lb = 0, extent = 0;
      MPI_Type_get_extent(send, &lb, &extent);
      lower = 8;
      reach = (count - 1) * extent + 12;
      const MPI_Aint packed[] = {0, 4};
      MPI_Datatype element = MPI_DATATYPE_NULL;
      MPI_Type_create_struct(2, lengths, packed, types, &element);
      MPI_Type_create_resized(element, 0, 12, &recv);
      MPI_Type_free(&element);
      MPI_Datatype whole = MPI_DATATYPE_NULL;
      MPI_Type_contiguous(count, recv, &whole);
      MPI_Type_free(&recv);
      recv = whole;
      recv_span = 12 * count;
      halo.add(send, count, lower + between(0, static_cast<int>(span - lower - reach)), recv, 1, recv_at);
      recv_at += (recv_span + 15) / 16 * 16;
      return;
    }
    default: {
      const int lengths[] = {4, 3, 2};
      const int displacements[] = {between(12, 16), between(6, 8), between(0, 3)};
      MPI_Type_indexed(3, lengths, displacements, MPI_CHAR, &send);
      MPI_Aint lb = 0, extent = 0;
      MPI_Type_get_extent(send, &lb, &extent);
      reach = lb + extent * count;
      MPI_Type_contiguous(9 * count, MPI_CHAR, &recv);
      recv_span = 9 * count;
    }
  }
  halo.add(send, count, between(0, static_cast<int>(span - reach)), recv, 1, recv_at);
  recv_at += (recv_span + 15) / 16 * 16;
}

// Random grids (1-3 dimensions, sizes 1, 2 and more, periodic or not), random offsets in [-2, 2]^d
// (repeated and zero ones included), random overlapping send datatypes, the same on every process.
HaloCase random_halo(std::uint32_t seed) {
  std::mt19937 draw(seed);
  auto between = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(draw); };
  const int d = between(1, 3), t = between(1, 8);
  HaloCase halo{std::vector<int>(static_cast<std::size_t>(d), 0), std::vector<int>(static_cast<std::size_t>(d), 0)};
  MPI_Dims_create(support::world_size(), d, halo.dims.data());
  for (int& period : halo.periods) period = between(0, 1);
  const MPI_Aint span = 192;  // above every block's reach (168 bytes at most)
  halo.send_bytes = static_cast<std::size_t>(span);
  MPI_Aint recv_at = 0;
  for (int j = 0; j < t; ++j) {
    for (int k = 0; k < d; ++k) halo.offsets.push_back(between(-2, 2));
    add_random_block(halo, draw, span, recv_at);
  }
  halo.recv_bytes = static_cast<std::size_t>(recv_at);
  return halo;
}

TEST(SharedSends, RandomOverlappingDatatypesArriveAsThePlainExchangeDoes) {
  support::Watchdog watchdog{"random overlapping datatypes", std::chrono::seconds(240)};
  int shared = 0;
  for (std::uint32_t seed = 1; seed <= 24; ++seed) {
    const HaloCase halo = random_halo(seed);
    MPI_Comm cart = neighborhood(halo);
    const Outcome forced = run(halo, cart, "overlap-combining");
    shared += forced.algorithm == "overlap-combining" ? 1 : 0;
    run(halo, cart, seed % 2 == 0 ? "auto" : "combining");
    MPI_Comm_free(&cart);
  }
  EXPECT_GE(shared, 12) << "most random cases share bytes, and run the parts' schedule where forced";
}

// One process passes other (equally sized) send datatypes: the processes' analyses differ, so all
// run the plain exchange, with the right result.
TEST(SharedSends, ProcessesWhoseBlocksDifferRunThePlainExchange) {
  support::Watchdog watchdog{"blocks that differ", std::chrono::seconds(120)};
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  HaloCase plain = stencil_halo(2, 4, 1), shifted = stencil_halo(2, 4, 1);
  plain.send_bytes = shifted.send_bytes = plain.send_bytes + 2 * sizeof(double);
  shifted.sdispls[0] = 2 * sizeof(double);  // rank 0's first block two doubles further on
  const HaloCase& halo = rank == 0 ? shifted : plain;
  MPI_Comm cart = neighborhood(halo);
  const Outcome forced =
      run(halo, cart, "overlap-combining", [&](int sender) -> const HaloCase& { return sender == 0 ? shifted : plain; });
  if (support::world_size() > 1) EXPECT_EQ(forced.algorithm, "trivial");
  MPI_Comm_free(&cart);
}

// Receive blocks that overlap are erroneous in MPI (the result is undefined): the analysis leaves such
// a call to the plain exchange, which completes.
TEST(SharedSends, OverlappingReceiveBlocksRunThePlainExchange) {
  support::Watchdog watchdog{"overlapping receive blocks", std::chrono::seconds(120)};
  HaloCase halo{{0}, {1}, {-1, 1}};
  MPI_Dims_create(support::world_size(), 1, halo.dims.data());
  for (int j = 0; j < 2; ++j) {
    MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(4, MPI_INT, &send);  // ints 0-3 and 2-5: sharing two
    MPI_Type_contiguous(4, MPI_INT, &recv);  // both at ints 0-3
    halo.add(send, 1, j * 8, recv, 1, 0);
  }
  halo.send_bytes = 24;
  halo.recv_bytes = 16;
  MPI_Comm cart = neighborhood(halo);
  std::vector<std::uint8_t> send = halo.send_array(support::world_rank(), 1), recv(halo.recv_bytes);
  Cart_request request = init_alltoallw(halo, cart, "overlap-combining", send, recv);
  EXPECT_EQ(last_outcome(cart).algorithm, "trivial");
  EXPECT_EQ(Cart_start(&request), MPI_SUCCESS);
  EXPECT_EQ(Cart_wait(&request), MPI_SUCCESS);
  EXPECT_EQ(Cart_request_free(&request), MPI_SUCCESS);
  MPI_Comm_free(&cart);
}

TEST(SharedSends, BlocksThatShareNothingRunAsWithoutTheAnalysis) {
  support::Watchdog watchdog{"disjoint blocks", std::chrono::seconds(120)};
  HaloCase halo{{0}, {1}, {-1, 1, 2}};
  MPI_Dims_create(support::world_size(), 1, halo.dims.data());
  for (int j = 0; j < 3; ++j) {
    MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
    MPI_Type_vector(3, 1, 3, MPI_INT, &send);
    MPI_Type_contiguous(3, MPI_INT, &recv);
    halo.add(send, 1, j * 4, recv, 1, j * 12);
  }
  halo.send_bytes = 48;
  halo.recv_bytes = 36;
  MPI_Comm cart = neighborhood(halo);
  EXPECT_EQ(run(halo, cart, "overlap-combining").algorithm, "trivial");
  EXPECT_NE(run(halo, cart, "auto").algorithm, "overlap-combining");
  MPI_Comm_free(&cart);
}

}  // namespace
