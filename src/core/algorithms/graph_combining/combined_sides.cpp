// SPDX-License-Identifier: BSD-3-Clause
#include "graph_combining.hpp"

namespace cartcoll {

CombiningPattern restricted_to(const CombiningPattern& pattern, CombinedSides sides) {
  CombiningPattern restricted;
  restricted.phases = pattern.phases;
  if (sides.sends) restricted.steps = pattern.steps;
  if (sides.receives) restricted.arrivals = pattern.arrivals;
  return restricted;
}

}  // namespace cartcoll
