#pragma once
// Planners: neighborhood + collective + this process's coordinates -> Schedule. Pure code, no MPI.
#include <optional>
#include <span>
#include <string_view>

#include "cartcoll/schedule.hpp"
#include "cartcoll/topology.hpp"

namespace cartcoll {

enum class Algorithm : std::uint8_t { trivial, combining, torus, automatic };

// Parses the value of the cartcoll_algorithm info key / CARTCOLL_ALGORITHM ("trivial", "combining",
// "torus", "auto").
std::optional<Algorithm> parse_algorithm(std::string_view name);
std::string_view algorithm_name(Algorithm algorithm);

// Choosing needs block sizes and a cost model (cost.hpp), which the MPI layer applies per call before
// planning; `automatic` reaching this function plans `trivial`.
Schedule plan(Algorithm algorithm, const Grid& grid, const Offsets& offsets, Collective collective,
              std::span<const int> coords);

// The direct algorithm: block i goes straight from R to R + offset i, all t messages in one phase.
Schedule plan_trivial(const Grid& grid, const Offsets& offsets, Collective collective,
                      std::span<const int> coords);

// Message combining with direct sends along the dimensions (000 Algorithms 1 and 2, 002's "torus
// direct"): d phases, C = sum of distinct non-zero coordinates per dimension rounds.
Schedule plan_combining(const Grid& grid, const Offsets& offsets, Collective collective,
                        std::span<const int> coords);

// 002's one-hop algorithm for one-ported tori: blocks move one hop per step along each dimension in
// turn, D = sum over dimensions of (largest positive + largest negative coordinate) phases; alltoall
// volume sum_i ||N_i||_1, allgather volume the prefix trie's sum of |c| over its edges.
Schedule plan_torus(const Grid& grid, const Offsets& offsets, Collective collective,
                    std::span<const int> coords);

}  // namespace cartcoll
