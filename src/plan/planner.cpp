// The one place that knows which planners exist.
#include "cartcoll/plan.hpp"

namespace cartcoll {

std::optional<Algorithm> parse_algorithm(std::string_view name) {
  if (name == "trivial") return Algorithm::trivial;
  if (name == "combining") return Algorithm::combining;
  if (name == "torus") return Algorithm::torus;
  if (name == "auto") return Algorithm::automatic;
  return std::nullopt;
}

std::string_view algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::trivial: return "trivial";
    case Algorithm::combining: return "combining";
    case Algorithm::torus: return "torus";
    case Algorithm::automatic: return "auto";
  }
  return "?";
}

Schedule plan(Algorithm algorithm, const Grid& grid, const Offsets& offsets, Collective collective,
              std::span<const int> coords) {
  switch (algorithm) {
    case Algorithm::combining: return plan_combining(grid, offsets, collective, coords);
    case Algorithm::torus: return plan_torus(grid, offsets, collective, coords);
    case Algorithm::trivial:
    case Algorithm::automatic:  // resolved by the MPI layer's cost model before planning; see plan.hpp
      return plan_trivial(grid, offsets, collective, coords);
  }
  return plan_trivial(grid, offsets, collective, coords);
}

}  // namespace cartcoll
