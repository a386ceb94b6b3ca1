// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The direct exchange on a distributed graph (trivial's graph schedule), as a part other graph
// planners reuse for the edges they do not route otherwise.
#include <span>

#include "core/model/graph.hpp"
#include "core/planning/setup.hpp"
#include "core/model/schedule.hpp"

namespace cartcoll::detail {

// The phase of the direct edges: the one the set-up's result names (SetupResult::direct_phase), 0
// where none ran. Under `auto` a process that forwards neither side runs the direct exchange beside
// peers that forward (CombinedSides), and meets them there.
inline int direct_phase(const GraphView& view) { return view.setup != nullptr ? view.setup->direct_phase() : 0; }

// Adds to `phase` one message per edge: send block j to destinations[j] (the one send block for
// allgather) and receive block i from sources[i], edges to this process as copies; except the
// destinations in `skip_out` and sources in `skip_in` (ascending, each named once in the view).
void add_direct_graph_edges(const GraphView& view, Collective collective, Phase& phase,
                            std::span<const int> skip_out = {}, std::span<const int> skip_in = {});

}  // namespace cartcoll::detail
