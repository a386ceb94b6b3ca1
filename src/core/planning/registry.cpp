// SPDX-License-Identifier: BSD-3-Clause
// The one place that lists the planners; everything else looks them up here.
#include <array>
#include <string>

#include "cartcoll/error.hpp"
#include "plan.hpp"

// Adding an algorithm: one folder src/core/algorithms/<name>/ whose planner file defines its entry with
// external linkage (`extern const PlannerEntry name{...}` in namespace cartcoll::detail), with its
// set-up plug-in if it has one (setup.hpp), and one line here. CONTRIBUTING.md has the steps.
// Registration order is identification order (Algorithm::id), the same in every process.
#define CARTCOLL_REGISTERED_PLANNERS(X) \
  X(trivial_planner)                    \
  X(combining_planner)                  \
  X(torus_planner)                      \
  X(graph_combining_planner)            \
  X(node_combining_planner)            \
  X(graph_routing_planner)              \
  X(overlap_combining_planner)          \
  X(neighbor_relay_planner)

namespace cartcoll {

namespace detail {
#define CARTCOLL_DECLARE_PLANNER(entry) extern const PlannerEntry entry;
CARTCOLL_REGISTERED_PLANNERS(CARTCOLL_DECLARE_PLANNER)
}  // namespace detail

namespace {

#define CARTCOLL_ADDRESS_OF_PLANNER(entry) &detail::entry,
const std::array registered{CARTCOLL_REGISTERED_PLANNERS(CARTCOLL_ADDRESS_OF_PLANNER)};

std::array<PlannerEntry, registered.size()> copy_entries() {
  std::array<PlannerEntry, registered.size()> entries{};
  for (std::size_t i = 0; i < registered.size(); ++i) entries[i] = *registered[i];
  return entries;
}

}  // namespace

std::span<const PlannerEntry> planners() {
  static const auto entries = copy_entries();
  return entries;
}

std::optional<Algorithm> Algorithm::parse(std::string_view name) {
  if (name == "auto") return automatic();
  const auto table = planners();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i].name == name) return Algorithm(static_cast<int>(i));
  return std::nullopt;
}

Algorithm Algorithm::named(std::string_view name) {
  if (const auto found = parse(name)) return *found;
  throw Error(Errc::info_value, "unknown algorithm '" + std::string(name) + "'");
}

Algorithm Algorithm::from_id(int id) {
  if (id < -1 || id >= static_cast<int>(planners().size())) throw Error(Errc::arg, "no algorithm has this id");
  return Algorithm(id);
}

const PlannerEntry& Algorithm::planner() const {
  if (is_automatic()) throw Error(Errc::arg, "auto names no planner; it is resolved per call");
  return planners()[static_cast<std::size_t>(id_)];
}

std::string_view Algorithm::name() const { return is_automatic() ? std::string_view("auto") : planner().name; }

namespace {

const PlannerEntry& serving(Algorithm algorithm, Collective collective, NeighborhoodKind kind) {
  const PlannerEntry& entry = algorithm.planner();
  if (!entry.serves(collective) || !entry.serves(kind))
    throw Error(Errc::arg, std::string(entry.name) + " does not plan this collective on this kind of neighborhood");
  return entry;
}

}  // namespace

Schedule plan(Algorithm algorithm, const CartesianView& view, Collective collective) {
  return serving(algorithm, collective, NeighborhoodKind::cartesian).plan_cartesian(view, collective);
}

Schedule plan(Algorithm algorithm, const GraphView& view, Collective collective) {
  Schedule schedule = serving(algorithm, collective, NeighborhoodKind::graph).plan_graph(view, collective);
  if (collective == Collective::alltoall) schedule.send_peers.assign(view.destinations.begin(), view.destinations.end());
  schedule.recv_peers.assign(view.sources.begin(), view.sources.end());
  return schedule;
}

}  // namespace cartcoll
