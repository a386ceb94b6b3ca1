// The one place that knows which planners exist.
#include "cartcoll/plan.hpp"

namespace cartcoll {

std::optional<Algorithm> parse_algorithm(std::string_view name) {
  if (name == "trivial") return Algorithm::trivial;
  if (name == "auto") return Algorithm::automatic;
  return std::nullopt;
}

std::string_view algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::trivial: return "trivial";
    case Algorithm::automatic: return "auto";
  }
  return "?";
}

Schedule plan(Algorithm algorithm, const Grid& grid, const Offsets& offsets, Collective collective,
              std::span<const int> coords) {
  switch (algorithm) {
    case Algorithm::trivial:
    case Algorithm::automatic:  // the only algorithm so far; selection arrives with message combining
      return plan_trivial(grid, offsets, collective, coords);
  }
  return plan_trivial(grid, offsets, collective, coords);
}

}  // namespace cartcoll
