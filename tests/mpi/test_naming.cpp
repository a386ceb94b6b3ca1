// SPDX-License-Identifier: BSD-3-Clause
// Cartesian naming, neighborhood generators and CC_Comm_base through the C API of
// <cartcoll/unified.h>: every query in both orders on tori, meshes and grids smaller than the
// communicator against the odometer oracle (../naming_oracle.hpp, not the library's arithmetic);
// sub-grids; the base communicator of intra-, inter- and graph communicators; bad input giving one
// clear error class on every process, through the communicator's error handler, without hanging.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <vector>

#include "../naming_oracle.hpp"
#include "../support/call_census.hpp"
#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/handle_census.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/cartcoll.h"
#include "cartcoll/naming.hpp"
#include "cartcoll/neighbor.h"

using namespace support;
using cartcoll::test::Coordinates;
using cartcoll::test::NamedGrid;
using cartcoll::test::RankTable;
using cartcoll::test::vectors_within;

namespace {

constexpr auto deadline = std::chrono::seconds(120);

int ndims(const NamedGrid& grid) { return static_cast<int>(grid.dims.size()); }

std::vector<int> flattened(const std::vector<Coordinates>& vectors) {
  std::vector<int> flat;
  for (const Coordinates& v : vectors) flat.insert(flat.end(), v.begin(), v.end());
  return flat;
}

int or_null(std::optional<int> rank) { return rank.value_or(MPI_PROC_NULL); }

// MPI_Dims_create's grids in 1 to 3 dimensions as tori, meshes and mixed, and grids smaller than the
// communicator (the last processes without a name), in both orders.
std::vector<NamedGrid> grids_for(int p) {
  std::vector<NamedGrid> grids;
  for (int d = 1; d <= 3; ++d) {
    std::vector<int> dims(static_cast<std::size_t>(d), 0);
    MPI_Dims_create(p, d, dims.data());
    for (int pattern = 0; pattern < 3; ++pattern) {
      std::vector<bool> periods(dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k) periods[k] = pattern == 0 || (pattern == 2 && k % 2 == 0);
      for (bool row_major : {true, false}) grids.push_back({dims, periods, row_major});
    }
  }
  if (p > 1) grids.push_back({{p - 1}, {true}, true});
  if (p >= 5) {
    grids.push_back({{2, (p - 1) / 2}, {true, false}, true});
    grids.push_back({{2, 1, (p - 1) / 2}, {false, true, true}, false});
  }
  return grids;
}

std::string describe(const NamedGrid& grid) {
  std::string text = grid.row_major ? "row-major" : "column-major";
  for (std::size_t k = 0; k < grid.dims.size(); ++k)
    text += " " + std::to_string(grid.dims[k]) + (grid.periods[k] ? "p" : "");
  return text;
}

int name(MPI_Comm comm, const NamedGrid& grid) {
  const std::vector<int> periods(grid.periods.begin(), grid.periods.end());
  int size = -1;
  EXPECT_EQ(CC_Cart_name(comm, ndims(grid), grid.row_major ? MPI_ORDER_C : MPI_ORDER_FORTRAN, grid.dims.data(),
                         periods.data(), &size),
            MPI_SUCCESS);
  return size;
}

// Every rank of the communicator and MPI_PROC_NULL.
std::vector<int> every_rank() {
  std::vector<int> ranks(static_cast<std::size_t>(world_size()));
  std::iota(ranks.begin(), ranks.end(), 0);
  ranks.push_back(MPI_PROC_NULL);
  return ranks;
}

// This process's share of every_rank() (MPI_PROC_NULL goes to rank 0): the queries are local and the
// same everywhere, so the processes split the work of asking about every rank.
std::vector<int> my_share_of_every_rank() {
  std::vector<int> share;
  const std::vector<int> all = every_rank();
  for (std::size_t i = static_cast<std::size_t>(world_rank()); i < all.size(); i += static_cast<std::size_t>(world_size()))
    share.push_back(all[i]);
  return share;
}

class Naming : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    communicators_before_ = census::live().communicators;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  }
  void TearDown() override {
    MPI_Comm_free(&comm_);
    EXPECT_EQ(census::live().communicators, communicators_before_) << "communicators leaked";
  }

  void expect_test_and_get(const NamedGrid& grid, int size) const;
  void expect_absolute_queries(const NamedGrid& grid, const RankTable& table) const;
  void expect_relative_queries(const NamedGrid& grid, const RankTable& table) const;
  void expect_relative_coordinates(const NamedGrid& grid, const RankTable& table) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::size_t communicators_before_ = 0;
};

void Naming::expect_test_and_get(const NamedGrid& grid, int size) const {
  int flag = -1, d = -1, named = -1;
  ASSERT_EQ(CC_Cart_test(comm_, &flag, &d, &named), MPI_SUCCESS);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(d, ndims(grid));
  EXPECT_EQ(named, size);
  // maxd = d, and maxd = d - 1: only the first maxd entries are written.
  for (int maxd = d; maxd >= std::max(d - 1, 1); --maxd) {
    int dimorder = -1;
    std::vector<int> order(static_cast<std::size_t>(d) + 1, -7), period(static_cast<std::size_t>(d) + 1, -7);
    ASSERT_EQ(CC_Cart_get(comm_, &dimorder, maxd, order.data(), period.data()), MPI_SUCCESS);
    EXPECT_EQ(dimorder, grid.row_major ? MPI_ORDER_C : MPI_ORDER_FORTRAN);
    for (int k = 0; k <= d; ++k) {
      const auto at = static_cast<std::size_t>(k);
      EXPECT_EQ(order[at], k < maxd ? grid.dims[at] : -7);
      EXPECT_EQ(period[at], k < maxd ? (grid.periods[at] ? 1 : 0) : -7);
    }
  }
}

void Naming::expect_absolute_queries(const NamedGrid& grid, const RankTable& table) const {
  const auto d = static_cast<std::size_t>(ndims(grid));
  for (int rank : my_share_of_every_rank()) {
    Coordinates coordinates(d, -7);
    ASSERT_EQ(CC_Cart_coordinates(comm_, rank, coordinates.data()), MPI_SUCCESS);
    if (rank == MPI_PROC_NULL || rank >= table.size()) {
      EXPECT_EQ(coordinates, Coordinates(d, MPI_PROC_NULL)) << "rank " << rank << " has no name";
      continue;
    }
    EXPECT_EQ(coordinates, table.position(rank));
    int back = -7;
    ASSERT_EQ(CC_Cart_rank(comm_, coordinates.data(), &back), MPI_SUCCESS);
    EXPECT_EQ(back, rank);
  }
  // Positions on the grid and beyond it either way: wrapped on a torus, MPI_PROC_NULL off a mesh.
  const std::vector<Coordinates> positions = vectors_within(grid.dims);
  std::vector<int> expected, ranks(positions.size(), -7);
  for (const Coordinates& at : positions) {
    expected.push_back(or_null(table.rank(at)));
    int rank = -7;
    ASSERT_EQ(CC_Cart_rank(comm_, at.data(), &rank), MPI_SUCCESS);
    EXPECT_EQ(rank, expected.back());
  }
  const std::vector<int> flat = flattened(positions);
  ASSERT_EQ(CC_Cart_allranks(comm_, static_cast<int>(positions.size()), flat.data(), ranks.data()), MPI_SUCCESS);
  EXPECT_EQ(ranks, expected);
}

void Naming::expect_relative_queries(const NamedGrid& grid, const RankTable& table) const {
  const std::vector<Coordinates> vectors = vectors_within(grid.dims);
  const std::vector<int> flat = flattened(vectors);
  for (int source : my_share_of_every_rank()) {
    const bool named = source != MPI_PROC_NULL && source < table.size();
    std::vector<int> expected;
    for (const Coordinates& v : vectors) {
      expected.push_back(named ? or_null(table.relative(source, v)) : MPI_PROC_NULL);
      int dest = -7, in = -7, out = -7;
      ASSERT_EQ(CC_Cart_relative_rank(comm_, source, v.data(), &dest), MPI_SUCCESS);
      EXPECT_EQ(dest, expected.back());
      ASSERT_EQ(CC_Cart_relative_shift(comm_, source, v.data(), &in, &out), MPI_SUCCESS);
      EXPECT_EQ(out, expected.back());
      EXPECT_EQ(in, named ? or_null(table.relative(source, v, -1)) : MPI_PROC_NULL);
    }
    std::vector<int> ranks(vectors.size(), -7);
    ASSERT_EQ(CC_Cart_allranks_relative(comm_, source, static_cast<int>(vectors.size()), flat.data(), ranks.data()),
              MPI_SUCCESS);
    EXPECT_EQ(ranks, expected) << "source " << source;
  }
}

void Naming::expect_relative_coordinates(const NamedGrid& grid, const RankTable& table) const {
  const auto d = static_cast<std::size_t>(ndims(grid));
  for (int source : my_share_of_every_rank())
    for (int dest : every_rank()) {
      Coordinates relative(d, -7);
      const int code = CC_Cart_relative_coordinates(comm_, source, dest, relative.data());
      const auto has_name = [&](int rank) { return rank != MPI_PROC_NULL && rank < table.size(); };
      if (!has_name(source) || !has_name(dest)) {
        EXPECT_EQ(error_class(code), MPI_ERR_RANK) << source << " -> " << dest << " has no vector";
        continue;
      }
      ASSERT_EQ(code, MPI_SUCCESS);
      EXPECT_EQ(table.relative(source, relative), dest);
      for (std::size_t k = 0; k < d; ++k) {
        const int n = grid.dims[k];
        if (!grid.periods[k]) {
          EXPECT_EQ(relative[k], table.position(dest)[k] - table.position(source)[k]);
        } else {
          EXPECT_GT(2 * relative[k], -n) << "periodic coordinates lie in (-n/2, n/2]";
          EXPECT_LE(2 * relative[k], n) << "periodic coordinates lie in (-n/2, n/2]";
        }
      }
    }
}

TEST_F(Naming, EveryQueryMatchesTheOracleInBothOrdersOnToriMeshesAndSmallerGrids) {
  for (const NamedGrid& grid : grids_for(world_size())) {
    SCOPED_TRACE(describe(grid));
    const RankTable table(grid);
    ASSERT_EQ(name(comm_, grid), table.size());
    expect_test_and_get(grid, table.size());
    expect_absolute_queries(grid, table);
    expect_relative_queries(grid, table);
    expect_relative_coordinates(grid, table);
  }
}

TEST_F(Naming, NamingIsALocalAttributeThatRenamingReplacesAndNoConstructorCopies) {
  const int p = world_size();
  census::reset_calls();
  ASSERT_EQ(name(comm_, {{p}, {true}, true}), p);
  ASSERT_EQ(name(comm_, {{1, p}, {false, false}, false}), p);  // renamed
  int size = -1, rank = -1, coordinates[2] = {0, p - 1}, neighbors = -1;
  const int too_large[] = {p + 1}, period[] = {0};
  EXPECT_EQ(error_class(CC_Cart_name(comm_, 1, MPI_ORDER_C, too_large, period, &size)), MPI_ERR_DIMS);
  ASSERT_EQ(CC_Cart_rank(comm_, coordinates, &rank), MPI_SUCCESS);  // the failed renaming changed nothing
  EXPECT_EQ(rank, p - 1);
  ASSERT_EQ(CC_Cart_neighbors_count(comm_, 0, CC_CHEBYSHEV, 1, 1, &neighbors), MPI_SUCCESS);
  EXPECT_EQ(neighbors, 8);
  EXPECT_EQ(census::calls().collectives, 0) << "naming and its queries must not communicate";
  EXPECT_EQ(census::calls().blocking, 0);
  // The C++ accessor (what graph constructors read).
  const std::optional<cartcoll::CartesianNaming> naming = cartcoll::naming_of(comm_);
  ASSERT_TRUE(naming.has_value());
  EXPECT_EQ(std::vector<int>(naming->dims().begin(), naming->dims().end()), (std::vector<int>{1, p}));
  EXPECT_EQ(naming->periods(), (std::vector<bool>{false, false}));
  EXPECT_EQ(naming->order(), cartcoll::DimOrder::column_major);
  // MPI_Comm_dup does not copy it.
  MPI_Comm copy = MPI_COMM_NULL;
  MPI_Comm_dup(comm_, &copy);
  int flag = -1, d = -1;
  ASSERT_EQ(CC_Cart_test(copy, &flag, &d, &size), MPI_SUCCESS);
  EXPECT_EQ(flag, 0);
  EXPECT_EQ(d, 0);
  EXPECT_EQ(size, 0);
  EXPECT_FALSE(cartcoll::naming_of(copy).has_value());
  MPI_Comm_free(&copy);
  // MPI_COMM_WORLD stays named until MPI_Finalize, which must free the naming (LeakSanitizer).
  ASSERT_EQ(name(MPI_COMM_WORLD, {{p}, {false}, true}), p);
}

// The stencils of the unified-interfaces paper by Träff, Hunold, Mercier and Holmes, as offsets
// listed in lexicographic order; the oracle filters the box by the norm.
std::vector<int> stencil(int d, int metric, int shadow, int depth) {
  std::vector<int> flat;
  for (const Coordinates& v : vectors_within(std::vector<int>(static_cast<std::size_t>(d), depth))) {
    int distance = 0;
    for (int c : v) distance = metric == CC_MANHATTAN ? distance + std::abs(c) : std::max(distance, std::abs(c));
    if (distance >= shadow && distance <= depth) flat.insert(flat.end(), v.begin(), v.end());
  }
  return flat;
}

struct Stencil {
  int d, metric, shadow, depth, count;
};

TEST_F(Naming, GeneratorsGiveEveryRankTheSameOffsetsOnToriAndMeshes) {
  const std::vector<Stencil> stencils = {
      {2, CC_MANHATTAN, 1, 1, 4},  {2, CC_MANHATTAN, 0, 1, 5},  {2, CC_MANHATTAN, 0, 2, 13}, {2, CC_MANHATTAN, 1, 2, 12},
      {2, CC_CHEBYSHEV, 0, 1, 9},  {2, CC_CHEBYSHEV, 1, 1, 8},  {2, CC_CHEBYSHEV, 0, 2, 25}, {3, CC_MANHATTAN, 0, 1, 7},
      {3, CC_CHEBYSHEV, 0, 1, 27}, {3, CC_CHEBYSHEV, 2, 2, 98}, {2, CC_MANHATTAN, 3, 2, 0}};
  for (const Stencil& s : stencils)
    for (bool periodic : {true, false}) {
      std::vector<int> dims(static_cast<std::size_t>(s.d), 0);
      MPI_Dims_create(world_size(), s.d, dims.data());
      const NamedGrid grid{dims, std::vector<bool>(dims.size(), periodic), !periodic};
      SCOPED_TRACE(describe(grid) + " metric " + std::to_string(s.metric) + " shadow " + std::to_string(s.shadow) +
                   " depth " + std::to_string(s.depth));
      const RankTable table(grid);
      name(comm_, grid);
      const std::vector<int> expected = stencil(s.d, s.metric, s.shadow, s.depth);
      ASSERT_EQ(expected.size(), static_cast<std::size_t>(s.count * s.d));
      for (int rank : my_share_of_every_rank()) {
        int count = -1;
        ASSERT_EQ(CC_Cart_neighbors_count(comm_, rank, s.metric, s.shadow, s.depth, &count), MPI_SUCCESS);
        EXPECT_EQ(count, s.count) << "rank " << rank;
        std::vector<int> offsets(expected.size() + 1, -7);
        ASSERT_EQ(CC_Cart_neighbors(comm_, rank, s.metric, s.shadow, s.depth, count, offsets.data()), MPI_SUCCESS);
        EXPECT_EQ(std::vector<int>(offsets.begin(), offsets.end() - 1), expected);
        EXPECT_EQ(offsets.back(), -7);
        // As ranks: one per offset, repeated on a small torus, MPI_PROC_NULL off a mesh.
        std::vector<int> ranks(static_cast<std::size_t>(count) + 1, -7);
        ASSERT_EQ(CC_Cart_allranks_relative(comm_, rank, count, offsets.data(), ranks.data()), MPI_SUCCESS);
        for (int i = 0; i < count; ++i) {
          const auto at = static_cast<std::size_t>(i * s.d);
          const Coordinates v(offsets.begin() + static_cast<long>(at), offsets.begin() + static_cast<long>(at) + s.d);
          const bool named = rank != MPI_PROC_NULL && rank < table.size();
          EXPECT_EQ(ranks[static_cast<std::size_t>(i)], named ? or_null(table.relative(rank, v)) : MPI_PROC_NULL);
        }
        EXPECT_EQ(ranks.back(), -7);
      }
      // maxsize: the first offsets only.
      std::vector<int> first(expected.size(), -7);
      const int some = s.count / 2;
      ASSERT_EQ(CC_Cart_neighbors(comm_, 0, s.metric, s.shadow, s.depth, some, first.data()), MPI_SUCCESS);
      for (std::size_t i = 0; i < first.size(); ++i)
        EXPECT_EQ(first[i], i < static_cast<std::size_t>(some * s.d) ? expected[i] : -7);
    }
}

// The ranks of one sub-grid, gathered over it in its order, as world ranks.
std::vector<int> members(MPI_Comm sub) {
  int size = 0;
  MPI_Comm_size(sub, &size);
  std::vector<int> world(static_cast<std::size_t>(size));
  const int mine = world_rank();
  MPI_Allgather(&mine, 1, MPI_INT, world.data(), 1, MPI_INT, sub);
  return world;
}

TEST_F(Naming, SubGridsKeepTheOrderAndTheCoordinatesOfTheKeptDimensions) {
  const Watchdog watchdog("SubGridsKeepTheOrderAndTheCoordinatesOfTheKeptDimensions", deadline);
  const int p = world_size(), rank = world_rank();
  std::vector<int> dims(3, 0);
  MPI_Dims_create(p, 3, dims.data());
  std::vector<NamedGrid> grids = {{dims, {true, false, true}, true}, {dims, {false, false, true}, false}};
  if (p >= 5) grids.push_back({{2, (p - 1) / 2}, {false, false}, false});
  for (const NamedGrid& grid : grids) {
    const RankTable table(grid);
    name(comm_, grid);
    const auto d = grid.dims.size();
    for (unsigned mask = 0; mask < (1u << d); ++mask) {
      SCOPED_TRACE(describe(grid) + " excluding mask " + std::to_string(mask));
      std::vector<int> dimension(d);
      NamedGrid kept{{}, {}, grid.row_major};
      for (std::size_t k = 0; k < d; ++k) {
        dimension[k] = (mask >> k) & 1u ? 5 : 0;  // any non-zero value is true
        if (dimension[k] != 0) continue;
        kept.dims.push_back(grid.dims[k]);
        kept.periods.push_back(grid.periods[k]);
      }
      MPI_Comm sub = MPI_COMM_WORLD;
      ASSERT_EQ(CC_Cart_create_sub(comm_, dimension.data(), &sub), MPI_SUCCESS);
      if (rank >= table.size()) {
        EXPECT_EQ(sub, MPI_COMM_NULL) << "a process without a name is in no sub-grid";
        continue;
      }
      ASSERT_NE(sub, MPI_COMM_NULL);
      int flag = -1, sub_d = -1, size = -1, sub_rank = -1, sub_size = -1;
      ASSERT_EQ(CC_Cart_test(sub, &flag, &sub_d, &size), MPI_SUCCESS);
      EXPECT_EQ(flag, 0) << "sub-grids are not named";
      MPI_Comm_rank(sub, &sub_rank);
      MPI_Comm_size(sub, &sub_size);
      // The same coordinates in the excluded dimensions, in the communicator's order.
      const std::vector<int> world = members(sub);
      EXPECT_TRUE(std::is_sorted(world.begin(), world.end()));
      for (int member : world)
        for (std::size_t k = 0; k < d; ++k)
          if (dimension[k] != 0) EXPECT_EQ(table.position(member)[k], table.position(rank)[k]);
      if (kept.dims.empty()) {
        EXPECT_EQ(sub_size, 1);
      } else {
        // The unified-interfaces paper: named like the kept dimensions, a process has its kept
        // coordinates there.
        const RankTable sub_table(kept);
        Coordinates mine;
        for (std::size_t k = 0; k < d; ++k)
          if (dimension[k] == 0) mine.push_back(table.position(rank)[k]);
        EXPECT_EQ(sub_size, sub_table.size());
        EXPECT_EQ(sub_rank, sub_table.rank(mine));
        EXPECT_EQ(name(sub, kept), sub_size);
        Coordinates coordinates(mine.size(), -7);
        ASSERT_EQ(CC_Cart_coordinates(sub, sub_rank, coordinates.data()), MPI_SUCCESS);
        EXPECT_EQ(coordinates, mine);
      }
      MPI_Comm_free(&sub);
    }
  }
}

// The base of comm: congruent with `like`, without topology or naming, and fully connected.
void expect_base(MPI_Comm comm, MPI_Comm like) {
  MPI_Comm base = MPI_COMM_WORLD;
  ASSERT_EQ(CC_Comm_base(comm, &base), MPI_SUCCESS);
  ASSERT_NE(base, MPI_COMM_NULL);
  int compared = -1, topology = -1, inter = -1, flag = -1, d = -1, size = -1, base_size = 0;
  MPI_Comm_compare(base, like, &compared);
  EXPECT_EQ(compared, MPI_CONGRUENT) << "the same processes in the same order";
  MPI_Topo_test(base, &topology);
  EXPECT_EQ(topology, MPI_UNDEFINED);
  MPI_Comm_test_inter(base, &inter);
  EXPECT_EQ(inter, 0);
  ASSERT_EQ(CC_Cart_test(base, &flag, &d, &size), MPI_SUCCESS);
  EXPECT_EQ(flag, 0);
  MPI_Comm_size(base, &base_size);
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, base);
  EXPECT_EQ(sum, base_size);
  MPI_Comm_free(&base);
}

// Two halves of MPI_COMM_WORLD and the intercommunicator between them (at least 2 processes).
struct Halves {
  Halves() {
    const int p = world_size(), rank = world_rank(), color = rank < p / 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? p / 2 : 0, 77, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  }
  ~Halves() {
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
  MPI_Comm half = MPI_COMM_NULL, inter = MPI_COMM_NULL;
};

TEST_F(Naming, BaseCommunicatorOfIntraInterAndGraphCommunicators) {
  const Watchdog watchdog("BaseCommunicatorOfIntraInterAndGraphCommunicators", deadline);
  const int p = world_size(), rank = world_rank();
  name(comm_, {{p}, {true}, true});
  expect_base(comm_, comm_);
  expect_base(MPI_COMM_WORLD, MPI_COMM_WORLD);
  // Graph communicators, reordered where MPI wants to: the base keeps their order.
  const int previous = (rank + p - 1) % p, next = (rank + 1) % p, dims[] = {p}, periods[] = {1};
  MPI_Comm graph = MPI_COMM_NULL, library_graph = MPI_COMM_NULL, cart = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(comm_, 1, &previous, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &graph);
  expect_base(graph, graph);
  ASSERT_EQ(CC_Dist_graph_create_adjacent(comm_, 1, &previous, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                          0, &library_graph),
            MPI_SUCCESS);
  expect_base(library_graph, library_graph);
  MPI_Cart_create(comm_, 1, dims, periods, 1, &cart);
  expect_base(cart, cart);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&library_graph);
  MPI_Comm_free(&graph);
  if (p < 2) GTEST_SKIP() << "an intercommunicator needs two processes";
  // An intercommunicator's base is its local group.
  const Halves halves;
  expect_base(halves.inter, halves.half);
}

TEST_F(Naming, BadLocalArgumentsGiveOneClearClassOnEveryProcess) {
  const int p = world_size();
  int out = 0, flag = 0, d = 0, dimorder = 0, buffer[64] = {};
  const int line[] = {1, p}, one[] = {1}, zero[] = {0, 0}, negative[] = {-2}, huge[] = {65536, 65536};
  const int periods[] = {0, 0}, outside = p, below = -3;
  // Queries on a communicator without a naming, or on MPI_COMM_NULL.
  expect_class_everywhere(CC_Cart_rank(comm_, zero, &out), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_get(comm_, &dimorder, 1, buffer, buffer), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_coordinates(comm_, 0, buffer), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_relative_rank(comm_, 0, zero, &out), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_relative_coordinates(comm_, 0, 0, buffer), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_relative_shift(comm_, 0, zero, &out, &out), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_allranks(comm_, 1, zero, buffer), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_allranks_relative(comm_, 0, 1, zero, buffer), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_neighbors_count(comm_, 0, CC_MANHATTAN, 1, 1, &out), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_neighbors(comm_, 0, CC_MANHATTAN, 1, 1, 4, buffer), MPI_ERR_TOPOLOGY);
  expect_class_everywhere(CC_Cart_test(comm_, &flag, &d, &out), MPI_SUCCESS);
  expect_class_everywhere(CC_Cart_test(MPI_COMM_NULL, &flag, &d, &out), MPI_ERR_COMM);
  expect_class_everywhere(CC_Cart_rank(MPI_COMM_NULL, zero, &out), MPI_ERR_COMM);
  expect_class_everywhere(CC_Cart_name(MPI_COMM_NULL, 1, MPI_ORDER_C, one, periods, &out), MPI_ERR_COMM);
  // Bad grids: no naming is made.
  expect_class_everywhere(CC_Cart_name(comm_, 1, MPI_ORDER_C, negative, periods, &out), MPI_ERR_DIMS);
  expect_class_everywhere(CC_Cart_name(comm_, 2, MPI_ORDER_FORTRAN, zero, periods, &out), MPI_ERR_DIMS);
  expect_class_everywhere(CC_Cart_name(comm_, 0, MPI_ORDER_C, one, periods, &out), MPI_ERR_DIMS);
  expect_class_everywhere(CC_Cart_name(comm_, -1, MPI_ORDER_C, one, periods, &out), MPI_ERR_DIMS);
  expect_class_everywhere(CC_Cart_name(comm_, 2, MPI_ORDER_C, huge, periods, &out), MPI_ERR_DIMS);
  const int larger[] = {p + 1};
  expect_class_everywhere(CC_Cart_name(comm_, 1, MPI_ORDER_C, larger, periods, &out), MPI_ERR_DIMS);
  expect_class_everywhere(CC_Cart_name(comm_, 1, 12345, one, periods, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_name(comm_, 1, MPI_ORDER_C, nullptr, periods, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_name(comm_, 1, MPI_ORDER_C, one, nullptr, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_name(comm_, 1, MPI_ORDER_C, one, periods, nullptr), MPI_ERR_ARG);
  ASSERT_EQ(CC_Cart_test(comm_, &flag, &d, &out), MPI_SUCCESS);
  EXPECT_EQ(flag, 0) << "a failed CC_Cart_name names nothing";
  // Named: ranks outside the communicator, bad vectors and counts, NULL arrays.
  ASSERT_EQ(CC_Cart_name(comm_, 2, MPI_ORDER_C, line, periods, &out), MPI_SUCCESS);
  for (int bad : {outside, below}) {
    expect_class_everywhere(CC_Cart_coordinates(comm_, bad, buffer), MPI_ERR_RANK);
    expect_class_everywhere(CC_Cart_relative_rank(comm_, bad, zero, &out), MPI_ERR_RANK);
    expect_class_everywhere(CC_Cart_relative_coordinates(comm_, 0, bad, buffer), MPI_ERR_RANK);
    expect_class_everywhere(CC_Cart_relative_coordinates(comm_, bad, 0, buffer), MPI_ERR_RANK);
    expect_class_everywhere(CC_Cart_relative_shift(comm_, bad, zero, &out, &out), MPI_ERR_RANK);
    expect_class_everywhere(CC_Cart_allranks_relative(comm_, bad, 1, zero, buffer), MPI_ERR_RANK);
    expect_class_everywhere(CC_Cart_neighbors_count(comm_, bad, CC_MANHATTAN, 1, 1, &out), MPI_ERR_RANK);
    expect_class_everywhere(CC_Cart_neighbors(comm_, bad, CC_MANHATTAN, 1, 1, 4, buffer), MPI_ERR_RANK);
  }
  expect_class_everywhere(CC_Cart_relative_coordinates(comm_, MPI_PROC_NULL, 0, buffer), MPI_ERR_RANK);
  expect_class_everywhere(CC_Cart_allranks(comm_, -1, zero, buffer), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_allranks(comm_, 1, nullptr, buffer), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_allranks(comm_, 1, zero, nullptr), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_allranks_relative(comm_, 0, -2, zero, buffer), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_allranks(comm_, 0, nullptr, nullptr), MPI_SUCCESS);  // nothing to read or write
  expect_class_everywhere(CC_Cart_rank(comm_, nullptr, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_rank(comm_, zero, nullptr), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_coordinates(comm_, 0, nullptr), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_relative_shift(comm_, 0, zero, nullptr, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_get(comm_, &dimorder, -1, buffer, buffer), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_get(comm_, &dimorder, 2, nullptr, buffer), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_test(comm_, nullptr, &d, &out), MPI_ERR_ARG);
  // Generators: unknown metric, negative shadow, depth or maxsize, more offsets than an int counts.
  expect_class_everywhere(CC_Cart_neighbors_count(comm_, 0, 3, 1, 1, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_neighbors_count(comm_, 0, CC_CHEBYSHEV, -1, 1, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_neighbors_count(comm_, 0, CC_CHEBYSHEV, 0, -1, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_neighbors_count(comm_, 0, CC_CHEBYSHEV, 0, 40000, &out), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_neighbors(comm_, 0, CC_MANHATTAN, 1, 1, -1, buffer), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_neighbors(comm_, 0, CC_MANHATTAN, 1, 1, 4, nullptr), MPI_ERR_ARG);
  expect_class_everywhere(CC_Cart_neighbors(comm_, 0, CC_MANHATTAN, 1, 1, 0, nullptr), MPI_SUCCESS);
  expect_class_everywhere(CC_Cart_neighbors_count(comm_, 0, CC_MANHATTAN, 1, 1, nullptr), MPI_ERR_ARG);
  // An intercommunicator cannot be named (its ranks are the remote group's).
  if (p >= 2) {
    const Halves halves;
    expect_class_everywhere(CC_Cart_name(halves.inter, 1, MPI_ORDER_C, one, periods, &out), MPI_ERR_COMM);
    expect_class_everywhere(CC_Cart_create_sub(halves.inter, zero, nullptr), MPI_ERR_COMM);
  }
  // The grid named above stays in force through all of this.
  ASSERT_EQ(CC_Cart_get(comm_, &dimorder, 2, buffer, buffer + 2), MPI_SUCCESS);
  EXPECT_EQ(std::vector<int>(buffer, buffer + 4), (std::vector<int>{1, p, 0, 0}));
}

TEST_F(Naming, BadArgumentsToTheCollectivesOnOneProcessFailEveryProcess) {
  const Watchdog watchdog("BadArgumentsToTheCollectivesOnOneProcessFailEveryProcess", deadline);
  const int p = world_size(), last = world_rank() == p - 1;
  const int dims[] = {1, p}, periods[] = {0, 1}, keep[] = {0, 0}, other[] = {1, 0};
  MPI_Comm out = MPI_COMM_WORLD;
  int size = 0;
  // A process without a naming.
  if (!last) ASSERT_EQ(CC_Cart_name(comm_, 2, MPI_ORDER_C, dims, periods, &size), MPI_SUCCESS);
  expect_everywhere(CC_Cart_create_sub(comm_, keep, &out), MPI_ERR_TOPOLOGY, &out);
  ASSERT_EQ(CC_Cart_name(comm_, 2, MPI_ORDER_C, dims, periods, &size), MPI_SUCCESS);
  // NULL arguments on the last process only.
  int code = CC_Cart_create_sub(comm_, keep, last ? nullptr : &out);
  if (last) out = MPI_COMM_NULL;
  expect_everywhere(code, MPI_ERR_ARG, &out);
  expect_everywhere(CC_Cart_create_sub(comm_, last ? nullptr : keep, &out), MPI_ERR_ARG, &out);
  code = CC_Comm_base(comm_, last ? nullptr : &out);
  if (last) out = MPI_COMM_NULL;
  expect_everywhere(code, MPI_ERR_ARG, &out);
  expect_everywhere(CC_Cart_create_sub(MPI_COMM_NULL, keep, &out), MPI_ERR_COMM, &out);
  expect_everywhere(CC_Comm_base(MPI_COMM_NULL, &out), MPI_ERR_COMM, &out);
  if (p > 1) {
    // Different flags, or a different naming, on the last process.
    expect_everywhere(CC_Cart_create_sub(comm_, last ? other : keep, &out), MPI_ERR_ARG, &out);
    const int flipped[] = {0, 0};
    if (last) ASSERT_EQ(CC_Cart_name(comm_, 2, MPI_ORDER_C, dims, flipped, &size), MPI_SUCCESS);
    expect_everywhere(CC_Cart_create_sub(comm_, keep, &out), MPI_ERR_ARG, &out);
    // An intercommunicator's base with a NULL output on one process.
    const Halves halves;
    code = CC_Comm_base(halves.inter, last ? nullptr : &out);
    if (last) out = MPI_COMM_NULL;
    expect_everywhere(code, MPI_ERR_ARG, &out);
  }
  // Nothing hangs, and the next call works.
  ASSERT_EQ(CC_Cart_name(comm_, 2, MPI_ORDER_C, dims, periods, &size), MPI_SUCCESS);
  ASSERT_EQ(CC_Cart_create_sub(comm_, keep, &out), MPI_SUCCESS);
  MPI_Comm_free(&out);
}

// The error handler sees each error once, with its class.
int handled = 0, handled_class = MPI_SUCCESS;
void count_error(MPI_Comm*, int* code, ...) {
  ++handled;
  handled_class = error_class(*code);
}

TEST_F(Naming, ErrorsAreRaisedThroughTheCommunicatorsErrorHandler) {
  MPI_Errhandler counting = MPI_ERRHANDLER_NULL;
  MPI_Comm_create_errhandler(count_error, &counting);
  MPI_Comm_set_errhandler(comm_, counting);
  handled = 0;
  int rank = 0;
  const int zero[] = {0}, larger[] = {world_size() + 1}, period[] = {1};
  EXPECT_EQ(error_class(CC_Cart_rank(comm_, zero, &rank)), MPI_ERR_TOPOLOGY);
  EXPECT_EQ(handled, 1);
  EXPECT_EQ(handled_class, MPI_ERR_TOPOLOGY);
  EXPECT_EQ(error_class(CC_Cart_name(comm_, 1, MPI_ORDER_C, larger, period, &rank)), MPI_ERR_DIMS);
  EXPECT_EQ(handled, 2);
  EXPECT_EQ(handled_class, MPI_ERR_DIMS);
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&counting);
}

}  // namespace
