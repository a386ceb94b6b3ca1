// SPDX-License-Identifier: BSD-3-Clause
#include "plan_figures.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "core/planning/allgather_tree.hpp"
#include "cartcoll/error.hpp"
#include "core/planning/plan.hpp"
#include "core/model/schedule.hpp"
#include "util/cli.hpp"

namespace cartcoll::plan_tool {

namespace {

Figures figures_of(const Schedule& schedule) {
  return {schedule.messages(), schedule.communication_phases(), schedule.volume()};
}

std::string json_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string int_list(const std::vector<int>& values, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += separator;
    out += std::to_string(values[i]);
  }
  return out;
}

std::string json_figures(const Figures& f) {
  return "\"messages\":" + std::to_string(f.messages) + ",\"phases\":" + std::to_string(f.phases) +
         ",\"volume\":" + std::to_string(f.volume);
}

// One collective's object: {"trivial":{...},"combining":{...},"torus":...}.
std::string json_collective(const PlanFigures& figures, bool alltoall) {
  std::string out = "{";
  bool first = true;
  auto key = [&](const std::string& name) {
    if (!first) out += ",";
    first = false;
    out.append("\"").append(json_escape(name)).append("\":");  // append: GCC 12 misreads "..." + string
  };
  for (const AlgorithmFigures& algorithm : figures.algorithms) {
    key(algorithm.name);
    const std::optional<Figures>& f = alltoall ? algorithm.alltoall : algorithm.allgather;
    if (!f) {
      out.append("{\"error\":\"").append(json_escape(algorithm.error)).append("\"}");
      continue;
    }
    out.append("{").append(json_figures(*f));
    if (!alltoall && algorithm.name == "combining") {
      // The keys' "000" names Träff and Hunold's Cartesian Collective Communication, whose dimension
      // order this is: scripts and docs/plan-tool.md read the keys, so they keep the name.
      out += ",\"volume_000_order\":" + std::to_string(figures.tree_volume_distinct_order) +
             ",\"volume_best_order\":" + std::to_string(figures.tree_volume_best_order) + ",\"order_000\":[" +
             int_list(figures.distinct_order, ",") + "],\"order_best\":[" + int_list(figures.order_best, ",") + "]";
    }
    out += "}";
  }
  return out + "}";
}

}  // namespace

const AlgorithmFigures* PlanFigures::find(const std::string& name) const {
  for (const AlgorithmFigures& algorithm : algorithms)
    if (algorithm.name == name) return &algorithm;
  return nullptr;
}


PlanFigures compute_figures(const Offsets& offsets) {
  if (offsets.count() == 0) throw Error(Errc::arg, "the neighborhood is empty");
  PlanFigures figures;
  figures.d = offsets.ndims();
  figures.t = offsets.count();
  const Grid grid = unwrapped_torus(offsets);
  figures.grid.assign(grid.dims().begin(), grid.dims().end());
  figures.coords = middle_of(grid);

  for (const PlannerEntry& planner : planners()) {
    if (!planner.serves(NeighborhoodKind::cartesian)) continue;  // graph-only planners: compute_graph_figures
    if (planner.plans_shared_sends) continue;  // needs send blocks that share bytes: --halo
    const Algorithm algorithm = Algorithm::named(planner.name);
    AlgorithmFigures entry{std::string(planner.name), std::nullopt, std::nullopt, {}};
    const CartesianView view{grid, offsets, figures.coords};
    try {
      if (planner.serves_alltoall) entry.alltoall = figures_of(plan(algorithm, view, Collective::alltoall));
      if (planner.serves_allgather) entry.allgather = figures_of(plan(algorithm, view, Collective::allgather));
    } catch (const std::exception& e) {
      entry.alltoall.reset();
      entry.allgather.reset();
      entry.error = e.what();
    }
    figures.algorithms.push_back(std::move(entry));
  }

  figures.distinct_order = detail::order_by_distinct_coordinates(offsets);
  figures.order_best = detail::best_allgather_order(offsets);
  figures.tree_volume_distinct_order = detail::build_allgather_tree(offsets, figures.distinct_order).volume();
  figures.tree_volume_best_order = detail::build_allgather_tree(offsets, figures.order_best).volume();

  const AlgorithmFigures* trivial = figures.find("trivial");
  const AlgorithmFigures* combining = figures.find("combining");
  if (trivial && combining && trivial->alltoall && combining->alltoall) {
    const double saved_messages = trivial->alltoall->messages - combining->alltoall->messages;
    const double extra_blocks = combining->alltoall->volume - trivial->alltoall->volume;
    if (extra_blocks > 0) figures.cutoff_ratio = saved_messages / extra_blocks;
  }
  return figures;
}

std::string to_json(const PlanFigures& figures) {
  std::string out = "{\"d\":" + std::to_string(figures.d) + ",\"t\":" + std::to_string(figures.t) + ",\"grid\":[" +
                    int_list(figures.grid, ",") + "],\"coords\":[" + int_list(figures.coords, ",") + "]";
  out += ",\"alltoall\":" + json_collective(figures, true);
  out += ",\"allgather\":" + json_collective(figures, false);
  out += ",\"cutoff_ratio\":" + (figures.cutoff_ratio ? number(*figures.cutoff_ratio) : std::string("null"));
  return out + "}";
}

std::string to_table(const PlanFigures& figures) {
  std::ostringstream out;
  out << "d = " << figures.d << ", t = " << figures.t << " offsets; planned for the process at ("
      << int_list(figures.coords, ",") << ") of a " << int_list(figures.grid, "x")
      << " torus (no offset wraps)\n\n";
  // The algorithm column is as wide as the longest registered planner's name.
  int width = static_cast<int>(std::string_view("algorithm").size());
  for (const AlgorithmFigures& algorithm : figures.algorithms) width = std::max(width, static_cast<int>(algorithm.name.size()));
  char line[256];
  std::snprintf(line, sizeof line, "%-10s %-*s %9s %7s %9s\n", "collective", width, "algorithm", "messages", "phases",
                "volume");
  out << line;
  for (int pass = 0; pass < 2; ++pass) {
    const bool alltoall = pass == 0;
    const char* collective = alltoall ? "alltoall" : "allgather";
    for (const AlgorithmFigures& algorithm : figures.algorithms) {
      const std::optional<Figures>& f = alltoall ? algorithm.alltoall : algorithm.allgather;
      const char* name = algorithm.name.c_str();
      if (f)
        std::snprintf(line, sizeof line, "%-10s %-*s %9d %7d %9d\n", collective, width, name, f->messages, f->phases,
                      f->volume);
      else if (!algorithm.error.empty())
        std::snprintf(line, sizeof line, "%-10s %-*s   planner failed: %s\n", collective, width, name,
                      algorithm.error.c_str());
      else
        std::snprintf(line, sizeof line, "%-10s %-*s   (does not plan this collective)\n", collective, width, name);
      out << line;
    }
  }
  out << "\nallgather tree volume: " << figures.tree_volume_distinct_order << " with Träff and Hunold's order ("
      << int_list(figures.distinct_order, ",") << "), " << figures.tree_volume_best_order << " with the best order ("
      << int_list(figures.order_best, ",") << ", used by the combining plan)\n";
  if (!figures.cutoff_ratio)
    out << "alltoall cut-off ratio: none (combining sends no more blocks than trivial; the rounds alone decide)\n";
  else if (*figures.cutoff_ratio > 0)
    out << "alltoall cut-off ratio (t - C) / (V - t) = " << number(*figures.cutoff_ratio)
        << ": combining beats trivial for blocks of m < alpha/beta * " << number(*figures.cutoff_ratio) << " units\n";
  else
    out << "alltoall cut-off ratio (t - C) / (V - t) = " << number(*figures.cutoff_ratio)
        << ": combining never beats trivial (no fewer messages, more blocks)\n";
  const AlgorithmFigures* trivial = figures.find("trivial");
  if (figures.cutoff_ratio && trivial && trivial->alltoall && trivial->alltoall->messages != figures.t)
    out << "(t there is the trivial plan's " << trivial->alltoall->messages
        << " messages: local copies, such as the zero vector's, send nothing)\n";
  return out.str();
}

const char* usage() {
  static const std::string text =
      std::string("usage: cartcoll-plan NEIGHBORHOOD [--json]\n"
                  "       cartcoll-plan --help | --version\n"
                  "Plans every registered planner's alltoall and allgather for one process of a torus that no\n"
                  "offset wraps on (for a graph: for every process), and prints messages, communication phases\n"
                  "and volume per call.\n"
                  "NEIGHBORHOOD, exactly one of:\n") +
      cli::neighborhood_usage() + graphs::usage() +
      "  --halo D WIDTH N         the halo exchange of an N^D block of doubles with ghost width WIDTH, an\n"
      "                           alltoallw whose send blocks overlap: messages, phases and bytes sent of\n"
      "                           the direct exchange, combining and overlap-combining on a 3^D torus\n"
      "  --json                   one JSON object instead of the table\n" +
      "For a graph, the set-up of graph-combining (docs/graph-combining.md):\n"
      "  --threshold T --steps S --candidates K --matching-rounds R --phases P   its parameters\n"
      "  --node-size N            node-combining's friends only within nodes of N consecutive ranks\n"
      "                           (default 0: anywhere, as graph-combining's)\n"
      "  --routing-dims D         graph-routing's grid dimensions (default: extents near 4)\n"
      "  --verify                 run every schedule in the simulator against the reference model\n"
      "  --replay O L             the time of a call with 4-byte blocks, every schedule replayed on a machine\n"
      "                           of O us send overhead and L us latency a message (replay.hpp)\n";
  return text.c_str();
}

namespace {

int* graph_parameter(Request& request, const std::string& option) {
  if (option == "--routing-dims") return &request.routing_dims;
  CombiningParameters& parameters = request.combining;
  if (option == "--threshold") return &parameters.threshold;
  if (option == "--steps") return &parameters.steps;
  if (option == "--candidates") return &parameters.candidates;
  if (option == "--matching-rounds") return &parameters.matching_rounds;
  if (option == "--phases") return &parameters.phases;
  if (option == "--node-size") return &parameters.node_size;
  return nullptr;
}

}  // namespace

std::optional<Request> parse_command_line(const std::vector<std::string>& args, std::string& error) {
  Request request;
  cli::Neighborhood neighborhood;
  int given = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      request.help = true;
      return request;
    }
    if (arg == "--version") {
      request.version = true;
      return request;
    }
    if (arg == "--json") {
      request.json = true;
    } else if (arg == "--verify") {
      request.verify = true;
    } else if (arg == "--replay") {
      double microseconds[2] = {-1, -1};
      for (double& figure : microseconds)
        if (i + 1 < args.size()) figure = cli::parse_double(args[++i]).value_or(-1);
      if (microseconds[0] < 0 || microseconds[1] < 0) {
        error = "--replay takes two microsecond figures, the overhead and the latency";
        return std::nullopt;
      }
      request.replay = MessageTiming{microseconds[0] * 1e-6, microseconds[1] * 1e-6, 0};
    } else if (int* parameter = graph_parameter(request, arg)) {
      const auto value = i + 1 < args.size() ? cli::parse_int(args[++i]) : std::nullopt;
      if (!value) {
        error = arg + " takes an integer";
        return std::nullopt;
      }
      *parameter = *value;
    } else if (arg == "--halo") {
      int values[3] = {0, 0, 0};
      for (int& value : values)
        if (i + 1 < args.size()) value = cli::parse_int(args[++i]).value_or(0);
      if (values[0] < 1 || values[0] > 6 || values[1] < 1 || values[2] < values[1]) {
        error = "--halo takes D (1 to 6), WIDTH (at least 1) and N (at least WIDTH)";
        return std::nullopt;
      }
      request.halo = HaloLayout{values[0], values[1], values[2], 8};
      ++given;
    } else if (cli::parse_neighborhood(args, i, neighborhood, error)) {
      if (!error.empty()) return std::nullopt;
      ++given;
    } else if (graphs::EdgeList graph; graphs::parse_graph(args, i, graph, error)) {
      if (!error.empty()) return std::nullopt;
      request.graph = std::move(graph);
      ++given;
    } else {
      error = cli::unknown_argument(arg);
      return std::nullopt;
    }
  }
  if (given != 1) {
    error = given == 0 ? "no neighborhood given" : "give exactly one neighborhood";
    return std::nullopt;
  }
  request.d = neighborhood.d;
  request.flat = std::move(neighborhood.flat);
  request.description = request.graph ? request.graph->description : neighborhood.description;
  return request;
}

}  // namespace cartcoll::plan_tool
