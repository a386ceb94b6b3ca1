// SPDX-License-Identifier: BSD-3-Clause
// `auto`: without a profile the candidates are measured once per size class on scratch buffers;
// with one (CARTCOLL_PROFILE) the choice follows the cost model. Either way it is the same on every
// process and runs correctly. No expectation here depends on a measured time: which algorithm a
// measurement picks is checked only to be agreed; which one a model picks, with a profile.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "../support/profile_file.hpp"
#include "../support/cart_fixture.hpp"
#include "traffic_census.hpp"
#include "cartcoll/cartcoll.hpp"
#include "runtime/comm/neighborhood.hpp"
#include "runtime/comm/state.hpp"

using namespace support;

namespace {

const cartcoll::Algorithm trivial = cartcoll::Algorithm::named("trivial");
const cartcoll::Algorithm combining = cartcoll::Algorithm::named("combining");

// A 3-D torus over all processes with the 26-point Moore neighborhood, owned.
cartcoll::Communicator moore_torus() { return cartcoll::Communicator(support::moore_torus(3)); }

using support::use_profile;

cartcoll::Algorithm choice_of(const cartcoll::CartComm& cart, const cartcoll::Layout& layout) {
  const cartcoll::Algorithm chosen = cart.choose_algorithm(layout);
  int mine[2] = {chosen.id(), -chosen.id()};
  MPI_Allreduce(MPI_IN_PLACE, mine, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(mine[0], -mine[1]) << "processes chose differently";
  return chosen;
}

cartcoll::Algorithm choice(const cartcoll::CartComm& cart, int ints, bool gather) {
  std::vector<int> send(26 * static_cast<std::size_t>(ints)), recv(send.size());
  return choice_of(cart, gather ? cartcoll::layout::allgather({26, 26}, send.data(), ints, MPI_INT, recv.data(), ints, MPI_INT)
                                : cartcoll::layout::alltoall({26, 26}, send.data(), ints, MPI_INT, recv.data(), ints, MPI_INT));
}

TEST(Selection, PerMessageCostsFavourCombiningAndBytesFavourTrivial) {
  const std::string profile = use_profile("0 1e-5 1e-10\n");  // per-message cost dominates small blocks
  {
    const auto owned = moore_torus();
    const auto cart = owned.view();
    EXPECT_EQ(choice(cart, 1, false), combining);
    EXPECT_EQ(choice(cart, 1 << 16, false), trivial);  // alltoall V = 54 > t = 26
    EXPECT_EQ(choice(cart, 1 << 16, true), combining);  // allgather V = t
    // The chosen algorithm runs correctly: every block comes from its source.
    const int rank = cart.rank();
    std::vector<int> send(26), recv(26, -1);
    for (int i = 0; i < 26; ++i) send[static_cast<std::size_t>(i)] = 100 * rank + i;
    cartcoll::alltoall<int>(cart, send, recv);
    const auto sources = cart.sources();
    for (int i = 0; i < 26; ++i) EXPECT_EQ(recv[static_cast<std::size_t>(i)], 100 * sources[static_cast<std::size_t>(i)] + i);
  }
  unsetenv("CARTCOLL_PROFILE");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(profile.c_str());
}

// Point-to-point messages this process sent while `action` ran.
template <typename Action>
long long messages_during(Action action) {
  census::reset_traffic();
  action();
  return census::traffic().messages;
}

TEST(Selection, MeasuresOncePerSizeClassOnScratchBuffers) {
  const auto owned = moore_torus();
  const auto cart = owned.view();
  std::vector<int> send(26 * 4, 5), recv(send.size(), -1);
  const auto layout = [&](int ints) {
    return cartcoll::layout::alltoall({26, 26}, send.data(), ints, MPI_INT, recv.data(), ints, MPI_INT);
  };
  if (world_size() == 1) GTEST_SKIP() << "one process has only itself as neighbor: nothing to measure";
  const long long measuring = 1;
  cartcoll::Algorithm first = cartcoll::Algorithm::automatic();
  EXPECT_GE(messages_during([&] { first = cart.choose_algorithm(layout(1)); }), measuring) << "the first call measures";
  EXPECT_NE(first, cartcoll::Algorithm::automatic());
  EXPECT_EQ(std::count(recv.begin(), recv.end(), -1), static_cast<long>(recv.size())) << "measuring wrote to the call's buffers";
  int mine[2] = {first.id(), -first.id()};
  MPI_Allreduce(MPI_IN_PLACE, mine, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(mine[0], -mine[1]) << "processes chose differently";
  cartcoll::Algorithm again = cartcoll::Algorithm::automatic();
  EXPECT_EQ(messages_during([&] { again = cart.choose_algorithm(layout(1)); }), 0) << "the size class is cached";
  EXPECT_EQ(again, first);
  EXPECT_GE(messages_during([&] { cart.choose_algorithm(layout(4)); }), measuring) << "a new size class measures";
  // Persistent requests build their datatypes once, so they are measured as they run: separately.
  {
    cartcoll::Request request;
    EXPECT_GE(messages_during([&] { request = cart.exchange_init(layout(1)); }), measuring)
        << "persistent calls are a size class of their own";
  }
  // The measured choice runs correctly.
  for (int i = 0; i < 26; ++i) send[static_cast<std::size_t>(i)] = 100 * cart.rank() + i;
  cartcoll::alltoall<int>(cart, std::span(send).first(26), std::span(recv).first(26));
  const auto sources = cart.sources();
  for (int i = 0; i < 26; ++i) EXPECT_EQ(recv[static_cast<std::size_t>(i)], 100 * sources[static_cast<std::size_t>(i)] + i);
}

// A call too large to measure on scratch buffers is chosen by the cost model: with a profile its
// model's choice (combining would send about twice the bytes of 26 blocks of 4 MiB each way, in 6
// messages instead of 26); without one the model auto calibrates, whose figures depend on the
// machine's clock, so there the choice is checked only to be one every process agrees on.
TEST(Selection, CallsTooLargeToMeasureFallBackToTheModel) {
  // The layouts are never executed, so the addresses need not be backed by memory of that size.
  int send = 0, recv = 0;
  const auto huge = cartcoll::layout::alltoall({26, 26}, &send, 1 << 20, MPI_INT, &recv, 1 << 20, MPI_INT);
  const auto huge_gather = cartcoll::layout::allgather({26, 26}, &send, 1 << 20, MPI_INT, &recv, 1 << 20, MPI_INT);
  {
    const auto owned = moore_torus();
    EXPECT_NE(choice_of(owned.view(), huge), cartcoll::Algorithm::automatic());
  }
  const std::string profile = use_profile("0 1e-5 1e-10\n");
  {
    const auto owned = moore_torus();
    EXPECT_EQ(choice_of(owned.view(), huge), trivial) << "combining would send about twice the bytes";
    EXPECT_EQ(choice_of(owned.view(), huge_gather), combining) << "allgather: the same bytes in fewer messages";
  }
  unsetenv("CARTCOLL_PROFILE");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::remove(profile.c_str());
}

// The bytes of a block are what processes share, not its datatype: even ranks pass m contiguous ints,
// odd ranks one vector of m ints with gaps (a larger extent). Every size class is measured anew, and
// every process must still choose the same and deliver the data.
TEST(Selection, ProcessesWithDifferentDatatypesAgree) {
  const auto owned = moore_torus();
  const auto cart = owned.view();
  const bool strided = cart.rank() % 2 == 1;
  const auto sources = cart.sources();
  for (int m : {1, 3, 40, 700}) {
    MPI_Datatype vector = MPI_DATATYPE_NULL;
    MPI_Type_vector(m, 1, 2, MPI_INT, &vector);
    MPI_Type_commit(&vector);
    // alltoall blocks lie one extent apart: 2m - 1 ints for the vector.
    const std::size_t stride = static_cast<std::size_t>(strided ? 2 * m - 1 : m);
    std::vector<int> send(26 * stride, -7), recv(26 * stride, -1);
    auto element = [&](std::size_t block, int k) { return block * stride + static_cast<std::size_t>(k) * (strided ? 2 : 1); };
    for (std::size_t i = 0; i < 26; ++i)
      for (int k = 0; k < m; ++k) send[element(i, k)] = 100000 * cart.rank() + 100 * static_cast<int>(i) + k;
    const int count = strided ? 1 : m;
    const MPI_Datatype type = strided ? vector : MPI_INT;
    const auto layout = cartcoll::layout::alltoall({26, 26}, send.data(), count, type, recv.data(), count, type);
    (void)choice_of(cart, layout);  // fails unless every process chose the same
    cart.exchange(layout);
    for (std::size_t i = 0; i < 26; ++i)
      for (int k = 0; k < m; ++k)
        ASSERT_EQ(recv[element(i, k)], 100000 * sources[i] + 100 * static_cast<int>(i) + k) << "m " << m << ", block " << i;
    MPI_Type_free(&vector);
  }
}

TEST(Selection, ForcedAlgorithmsAreNotSecondGuessed) {
  const int p = world_size();
  cartcoll::CreateOptions options;
  MPI_Info_create(&options.info);
  MPI_Info_set(options.info, "cartcoll_algorithm", "trivial");
  const auto owned = cartcoll::Communicator::create(MPI_COMM_WORLD, cartcoll::Grid({p}, {true}),
                                                    cartcoll::Offsets(1, {1, -1}), options);
  MPI_Info_free(&options.info);
  int send[2] = {0, 0}, recv[2];
  EXPECT_EQ(owned.view().choose_algorithm(cartcoll::layout::alltoall({2, 2}, send, 1, MPI_INT, recv, 1, MPI_INT)),
            trivial);
}

// Semantics rule 68: `auto` measures node-combining only where there are several nodes of more than
// one process each (node size 2..p-1); otherwise it would time the direct exchange again.
TEST(Selection, NodeCombiningIsACandidateOnlyWithSeveralNodesOfSeveralProcesses) {
  const cartcoll::Grid grid({4, 4}, {true, true});
  const cartcoll::Offsets offsets(2, {0, 1, 1, 0, 0, -1, -1, 0});
  const cartcoll::Algorithm node_combining = cartcoll::Algorithm::named("node-combining");
  auto candidate = [&](int node_size) {
    const cartcoll::detail::Neighborhood neighborhood(
        cartcoll::detail::CartesianNeighborhood{grid, offsets, {0, 0}, {}, {}, std::nullopt, node_size});
    const std::span<const cartcoll::Algorithm> all = neighborhood.auto_candidates(cartcoll::Collective::alltoall);
    return std::find(all.begin(), all.end(), node_combining) != all.end();
  };
  EXPECT_FALSE(candidate(0));   // one node
  EXPECT_FALSE(candidate(1));   // a process per node
  EXPECT_TRUE(candidate(2));
  EXPECT_TRUE(candidate(8));
  EXPECT_FALSE(candidate(16));  // one node of all 16
  EXPECT_FALSE(candidate(40));
}

// The algorithm a nonblocking alltoall of one int a block runs on `cart`, and what decided it; the
// same on every process (a nonblocking call never measures: the model decides).
std::pair<cartcoll::Algorithm, std::string> nonblocking_choice(const cartcoll::CartComm& cart) {
  std::vector<int> send(26, cart.rank()), recv(26, -1);
  cart.iexchange(cartcoll::layout::alltoall({26, 26}, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT)).wait();
  const auto run = cartcoll::detail::find_state(cart.mpi())->last_run;
  EXPECT_TRUE(run.has_value());
  const auto sources = cart.sources();
  for (std::size_t i = 0; i < 26; ++i) EXPECT_EQ(recv[i], sources[i]) << "block " << i;
  return {run->algorithm, std::string(cartcoll::detail::name_of(run->decided_by))};
}

// The files rank 0 sees in `directory` (collective: their count is broadcast).
std::vector<std::filesystem::path> files_in(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  if (world_rank() == 0 && std::filesystem::exists(directory))
    for (const auto& entry : std::filesystem::directory_iterator(directory)) files.push_back(entry.path());
  int count = static_cast<int>(files.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, MPI_COMM_WORLD);
  files.resize(static_cast<std::size_t>(count));
  return files;
}

// CARTCOLL_MACHINE_PROFILE: switched off, `auto` decides a nonblocking call by the default model
// (combining: 26 messages cost more than 6) and keeps nothing; on, the first communicator measures
// the machine and keeps the profile in CARTCOLL_CACHE_DIR, and a later one reads it: rewritten there
// to make bytes dear and messages free, the same call runs trivial (combining sends more bytes).
TEST(Selection, TheMachineProfileIsKeptAndDecidesNonblockingCalls) {
  if (world_size() < 2) GTEST_SKIP() << "one process has no machine profile";
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / ("cartcoll-machine-" + std::to_string(id));
  setenv("CARTCOLL_CACHE_DIR", cache.c_str(), 1);
  {
    const auto owned = moore_torus();
    EXPECT_EQ(nonblocking_choice(owned.view()), std::make_pair(combining, std::string("model")));
  }
  EXPECT_TRUE(files_in(cache).empty()) << "switched off, nothing is kept";
  setenv("CARTCOLL_MACHINE_PROFILE", "auto", 1);
  {
    const auto owned = moore_torus();
    EXPECT_EQ(nonblocking_choice(owned.view()).second, "model");
  }
  const auto kept = files_in(cache);
  ASSERT_EQ(kept.size(), 1u) << "one profile per machine and MPI";
  if (world_rank() == 0) {
    std::ofstream(kept.front()) << "0 0 1e-3\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    const auto owned = moore_torus();
    EXPECT_EQ(nonblocking_choice(owned.view()), std::make_pair(trivial, std::string("model")))
        << "the kept profile decides";
  }
  setenv("CARTCOLL_MACHINE_PROFILE", "off", 1);
  unsetenv("CARTCOLL_CACHE_DIR");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::filesystem::remove_all(cache);
}

// Where no file can be kept (a cache directory that cannot be made), the first set-up that wants the
// machine profile measures it and the process keeps it: a later set-up sends no more messages than
// one with the profile switched off.
TEST(Selection, TheMachineProfileIsMeasuredOnceWhereNoFileCanBeKept) {
  if (world_size() < 2) GTEST_SKIP() << "one process has no machine profile";
  setenv("CARTCOLL_CACHE_DIR", "/proc/cartcoll-cannot-be-made", 1);
  const long long without = messages_during([] { moore_torus(); });
  setenv("CARTCOLL_MACHINE_PROFILE", "auto", 1);
  const long long measuring = messages_during([] { moore_torus(); });
  const long long kept = messages_during([] { moore_torus(); });
  setenv("CARTCOLL_MACHINE_PROFILE", "off", 1);
  unsetenv("CARTCOLL_CACHE_DIR");
  EXPECT_GT(measuring, without) << "the first set-up measures";
  EXPECT_EQ(kept, without) << "later ones take what the process kept";
}

}  // namespace
