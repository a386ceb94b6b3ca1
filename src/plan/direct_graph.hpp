#pragma once
// The direct exchange on a distributed graph (trivial's graph schedule), as a part other graph
// planners reuse for the edges they do not route otherwise.
#include <span>

#include "cartcoll/graph.hpp"
#include "cartcoll/schedule.hpp"

namespace cartcoll::detail {

// Adds to `phase` one message per edge: send block j to destinations[j] (the one send block for
// allgather) and receive block i from sources[i], edges to this process as copies; except the
// destinations in `skip_out` and sources in `skip_in` (ascending, each named once in the view).
void add_direct_graph_edges(const GraphView& view, Collective collective, Phase& phase,
                            std::span<const int> skip_out = {}, std::span<const int> skip_in = {});

}  // namespace cartcoll::detail
