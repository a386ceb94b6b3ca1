// libFuzzer target: arbitrary bytes -> a small grid, a neighborhood, a collective and block sizes;
// every planner's schedules for all processes are run by the simulator and compared with the
// reference model. Any mismatch, ScheduleError or other exception aborts with the decoded case.
//
// Input format (bytes past the end read as 0):
//   d = 1 + b % 4; per dimension one byte b: size = 1 + b % 5 (capped so that the grid has at most
//   64 processes), periodic = (b / 5) % 2; t = b % 13; t * d coordinates, each b % 13 - 6;
//   collective = b % 2 (0 alltoall, 1 allgather); block sizes b % 5 bytes: t of them for alltoall
//   (send block i and receive block i), one for allgather.
// With FUZZ_PLANNER_PRINT set in the environment every decoded case is printed (to read a corpus or
// a reproducer: fuzz_planner FILE...).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../describe.hpp"
#include "cartcoll/plan.hpp"
#include "cartcoll/reference.hpp"
#include "cartcoll/schedule.hpp"
#include "cartcoll/simulator.hpp"
#include "cartcoll/topology.hpp"

namespace {

using cartcoll::reference::Blocks;
using cartcoll::reference::Bytes;

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  int next(int modulus) { return (at_ < size_ ? data_[at_++] : 0) % modulus; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

struct Case {
  std::vector<int> dims;
  std::vector<bool> periodic;
  int t = 0;
  std::vector<int> flat;  // t * d offset coordinates
  cartcoll::Collective collective = cartcoll::Collective::alltoall;
  std::vector<std::size_t> recv_sizes;  // per block index, the same on every process
  std::size_t send_size = 0;            // allgather's one send block
};

Case decode(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  Case c;
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
  c.collective = in.next(2) == 0 ? cartcoll::Collective::alltoall : cartcoll::Collective::allgather;
  if (c.collective == cartcoll::Collective::alltoall) {
    for (int i = 0; i < c.t; ++i) c.recv_sizes.push_back(static_cast<std::size_t>(in.next(5)));
  } else {
    c.send_size = static_cast<std::size_t>(in.next(5));
    c.recv_sizes.assign(static_cast<std::size_t>(c.t), c.send_size);
  }
  return c;
}

std::string describe(const Case& c) {
  const cartcoll::Grid grid(c.dims, c.periodic);
  const cartcoll::Offsets offsets(static_cast<int>(c.dims.size()), c.flat);
  std::ostringstream out;
  out << cartcoll::test::describe(grid, offsets) << ", "
      << (c.collective == cartcoll::Collective::alltoall ? "alltoall" : "allgather") << ", block sizes [";
  for (std::size_t i = 0; i < c.recv_sizes.size(); ++i) out << (i ? " " : "") << c.recv_sizes[i];
  out << "]";
  return out.str();
}

[[noreturn]] void fail(const Case& c, const std::string& algorithm, const std::string& what) {
  std::fprintf(stderr, "\nfuzz_planner: %s\n  algorithm %s\n  case: %s\n", what.c_str(), algorithm.c_str(),
               describe(c).c_str());
  std::abort();
}

std::byte content(std::uint32_t salt, int rank, int block, std::size_t j) {
  std::uint32_t x = salt ^ (static_cast<std::uint32_t>(rank) * 0x9E3779B1u) ^ (static_cast<std::uint32_t>(block) << 8) ^
                    static_cast<std::uint32_t>(j);
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  return static_cast<std::byte>(x & 0xFFu);
}

Bytes fill(std::uint32_t salt, int rank, int block, std::size_t size) {
  Bytes bytes(size);
  for (std::size_t j = 0; j < size; ++j) bytes[j] = content(salt, rank, block, j);
  return bytes;
}

// The first difference between the simulated and the reference receive blocks, if any.
std::optional<std::string> difference(const Blocks& got, const Blocks& want) {
  if (got.size() != want.size()) return "different process counts";
  for (std::size_t r = 0; r < got.size(); ++r) {
    if (got[r].size() != want[r].size()) return "rank " + std::to_string(r) + ": different block counts";
    for (std::size_t i = 0; i < got[r].size(); ++i)
      if (got[r][i] != want[r][i]) return "rank " + std::to_string(r) + ", receive block " + std::to_string(i) + " differs";
  }
  return std::nullopt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Case c = decode(data, size);
  static const bool print = std::getenv("FUZZ_PLANNER_PRINT") != nullptr;
  if (print) std::fprintf(stderr, "case: %s\n", describe(c).c_str());
  const cartcoll::Grid grid(c.dims, c.periodic);
  const cartcoll::Offsets offsets(static_cast<int>(c.dims.size()), c.flat);
  const int p = grid.size();

  Blocks send(static_cast<std::size_t>(p)), recv(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    auto& mine = send[static_cast<std::size_t>(r)];
    if (c.collective == cartcoll::Collective::alltoall)
      for (int i = 0; i < c.t; ++i) mine.push_back(fill(0x5E4Du, r, i, c.recv_sizes[static_cast<std::size_t>(i)]));
    else
      mine.push_back(fill(0x5E4Du, r, 0, c.send_size));
    for (int i = 0; i < c.t; ++i)
      recv[static_cast<std::size_t>(r)].push_back(fill(0xA5E7u, r, i, c.recv_sizes[static_cast<std::size_t>(i)]));
  }
  const Blocks want = cartcoll::reference::exchange(grid, offsets, c.collective, send, recv);

  for (const cartcoll::PlannerEntry& entry : cartcoll::planners()) {
    if (!entry.serves(cartcoll::NeighborhoodKind::cartesian)) continue;  // graph planners: tests/unit
    const std::string name(entry.name);
    try {
      std::vector<cartcoll::Schedule> schedules;
      for (int r = 0; r < p; ++r) {
        const std::vector<int> coords = grid.coords_of(r);
        schedules.push_back(cartcoll::plan(cartcoll::Algorithm::named(name), {grid, offsets, coords}, c.collective));
        const cartcoll::Schedule& schedule = schedules.back();
        if (schedule.collective != c.collective || schedule.recv_blocks != c.t)
          fail(c, name, "rank " + std::to_string(r) + ": schedule for another collective or block count");
      }
      const Blocks got = cartcoll::simulate(schedules, send, recv);
      if (const auto diff = difference(got, want)) fail(c, name, "simulation differs from the reference: " + *diff);
    } catch (const cartcoll::ScheduleError& error) {
      fail(c, name, std::string("ScheduleError: ") + error.what());
    } catch (const std::exception& error) {
      fail(c, name, std::string("exception: ") + error.what());
    }
  }
  return 0;
}
