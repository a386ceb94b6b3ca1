// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// cartcoll-plan --halo D WIDTH N: the halo exchange of an N^D block with ghost width WIDTH, doubles
// (core/model/halo_layout.hpp), as an alltoallw whose send blocks overlap. Plans the direct exchange,
// message combining and overlap-combining for the middle process of a 3^D torus and counts, per call
// of that process, messages, communication phases and bytes sent (forwarding included).
#include <string>
#include <vector>

#include "core/model/halo_layout.hpp"
#include "core/model/schedule.hpp"

namespace cartcoll::plan_tool {

struct HaloAlgorithmFigures {
  std::string name;  // the planner's registered name
  int messages = 0;
  int phases = 0;
  long long bytes = 0;  // bytes sent, forwarding included
};

struct HaloFigures {
  HaloLayout layout;
  std::vector<int> grid;    // the torus planned on
  std::vector<int> coords;  // the process planned for
  int t = 0;                // send blocks (neighbors)
  long long block_bytes = 0;     // the send blocks' bytes added up: what the direct exchange sends
  long long distinct_bytes = 0;  // the bytes of the send buffer that some block sends
  int parts = 0;                 // sets of bytes that the same blocks share (shared_sends.hpp)
  std::vector<HaloAlgorithmFigures> algorithms;  // trivial, combining, overlap-combining
};

// The bytes a schedule sends; a block of the send buffer a, of the receive buffer r or a temp
// shaped like one of those weighs send_bytes[a] or recv_bytes[r].
long long bytes_sent(const Schedule& schedule, const std::vector<long long>& send_bytes,
                     const std::vector<long long>& recv_bytes);

// Error(Errc::arg) for a layout HaloLayout rejects or d > 6.
HaloFigures compute_halo_figures(const HaloLayout& layout);
std::string to_json(const HaloFigures& figures);
std::string to_table(const HaloFigures& figures);

}  // namespace cartcoll::plan_tool
