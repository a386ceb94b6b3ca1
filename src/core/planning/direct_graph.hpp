// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The direct exchange on a distributed graph (trivial's graph schedule), as a part other graph
// planners reuse for the edges they do not route otherwise.
#include <span>

#include "core/model/graph.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/model/schedule.hpp"

namespace cartcoll::detail {

// The phase of the direct edges: where graph-combining's set-up ran (a pattern, possibly empty or
// restricted to some sides), the last of its phase budget, with the combined messages; 0
// elsewhere. The set-up and its budget are the same on every process, so the direct exchange and
// graph-combining agree on it: under `auto` a process that combines neither side runs the direct
// exchange beside peers that combine (CombinedSides). The phases before hold the friend exchanges
// alone, so that no process starts its deliveries late for a direct message it does not forward.
inline int direct_phase(const GraphView& view) { return view.pattern != nullptr ? view.pattern->phases - 1 : 0; }

// Adds to `phase` one message per edge: send block j to destinations[j] (the one send block for
// allgather) and receive block i from sources[i], edges to this process as copies; except the
// destinations in `skip_out` and sources in `skip_in` (ascending, each named once in the view).
void add_direct_graph_edges(const GraphView& view, Collective collective, Phase& phase,
                            std::span<const int> skip_out = {}, std::span<const int> skip_in = {});

}  // namespace cartcoll::detail
