// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// graph-combining's planner, which node-combining runs on graphs too: there the set-up has paired
// friends only within a node (CombiningParameters::node_size).
#include "core/planning/plan.hpp"

namespace cartcoll::detail {

// Mirsadeghi et al.'s (Exploiting Common Neighborhoods) schedule from the CombiningPattern in
// GraphView::setup (the direct exchange where there is none).
Schedule plan_graph_combining(const GraphView& view, Collective collective);

}  // namespace cartcoll::detail
