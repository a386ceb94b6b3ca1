// SPDX-License-Identifier: BSD-3-Clause
#include "graph_figures.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>

#include <chrono>
#include <cmath>

#include "core/planning/plan.hpp"
#include "core/setup/simulated_transport.hpp"
#include "graph_proof.hpp"

namespace cartcoll::plan_tool {

namespace {

// Off-node sends where nodes are blocks of node_size consecutive ranks (all sends where node_size is 0).
std::optional<Figures> figures_of(const std::optional<Schedule>& schedule, int rank, int node_size) {
  if (!schedule) return std::nullopt;
  int off_node = 0;
  std::vector<int> per_phase;
  for (const Phase& phase : schedule->phases) {
    per_phase.push_back(static_cast<int>(phase.sends.size()));
    for (const Message& send : phase.sends) off_node += node_size <= 0 || send.peer / node_size != rank / node_size;
  }
  return Figures{schedule->messages(), schedule->communication_phases(), schedule->volume(), off_node, per_phase};
}

SetupFigures setup_figures_of(SetupCosts costs, double wall_seconds) {
  SetupFigures figures;
  figures.wall_seconds = wall_seconds;
  figures.rounds = static_cast<int>(costs.round_seconds.size());
  figures.traffic = std::move(costs.traffic);
  for (const SetupTraffic& traffic : figures.traffic) figures.most_compute = std::max(figures.most_compute, traffic.seconds);
  for (std::size_t r = 0; r < costs.round_seconds.size(); ++r) {
    figures.path_compute += costs.round_seconds[r];
    figures.path_messages += costs.round_messages[r];
    figures.path_bytes += costs.round_bytes[r];
  }
  return figures;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

SetupFigures run_setup(const Graph& graph, const CombiningParameters& parameters, std::vector<CombiningPattern>& patterns) {
  const auto start = std::chrono::steady_clock::now();
  SimulatedSetup setup = simulate_combining_setup(graph, parameters);
  SetupFigures figures = setup_figures_of(std::move(setup), seconds_since(start));
  figures.parameters = parameters;
  patterns = std::move(setup.patterns);
  return figures;
}

SetupFigures run_routing_setup(const Graph& graph, int dims, std::vector<RoutingPattern>& patterns) {
  const auto start = std::chrono::steady_clock::now();
  SimulatedRouting routing = simulate_routing_setup(graph, dims > 0 ? dims : default_routing_dims(graph.size()));
  SetupFigures figures = setup_figures_of(std::move(routing), seconds_since(start));
  patterns = std::move(routing.patterns);
  if (!patterns.empty()) figures.extents = patterns.front().extents;
  return figures;
}

// The set-up of a planner the tool knows no figures for, run as the runtime runs it where the
// planner is asked for (its parameters' defaults), over the simulated transport: each process's
// result, or none where it makes no run.
std::vector<std::shared_ptr<const SetupResult>> run_plugin_setup(const Graph& graph, const SetupPlugin& plugin) {
  std::vector<int> values;
  for (const SetupParameter& parameter : plugin.parameters) values.push_back(parameter.fallback);
  std::vector<long long> totals;
  for (int rank = 0; rank < graph.size(); ++rank) {
    const std::vector<long long> mine = plugin.contributions(graph.view(rank));
    totals.resize(mine.size());
    for (std::size_t k = 0; k < mine.size(); ++k) totals[k] += mine[k];
  }
  std::vector<std::unique_ptr<SetupRun>> runs;
  std::vector<detail::RoundProtocol*> protocols;
  for (int rank = 0; rank < graph.size(); ++rank) {
    std::vector<std::unique_ptr<SetupRun>> made = plugin.runs(SetupInput{graph.view(rank), values, 0, false, totals});
    if (made.empty()) return {};
    runs.push_back(std::move(made.front()));
    protocols.push_back(&runs.back()->protocol());
  }
  detail::run_simulated(protocols);
  std::vector<std::shared_ptr<const SetupResult>> results;
  for (const auto& run : runs) results.push_back(run->result());
  return results;
}

std::string joined(const std::vector<int>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i > 0 ? "," : "") + std::to_string(values[i]);
  return out;
}

std::string json_figures(const std::optional<Figures>& f) {
  if (!f) return "null";
  return "{\"messages\":" + std::to_string(f->messages) + ",\"phases\":" + std::to_string(f->phases) +
         ",\"volume\":" + std::to_string(f->volume) + ",\"off_node\":" + std::to_string(f->off_node) +
         ",\"messages_per_phase\":[" + joined(f->messages_per_phase) + "]}";
}

std::string json_collective(const GraphFigures& figures, const std::vector<std::optional<Figures>>& per_algorithm) {
  std::string out = "{";
  for (std::size_t a = 0; a < figures.algorithms.size(); ++a) {
    if (a > 0) out += ",";
    out.append("\"").append(figures.algorithms[a]).append("\":").append(json_figures(per_algorithm[a]));
  }
  return out + "}";
}

// Total, smallest and largest over the processes of one figure.
struct Spread {
  long long total = 0;
  int least = 0, most = 0;
};

template <typename Field>
Spread spread_of(const GraphFigures& figures, std::size_t algorithm, bool alltoall, Field field) {
  Spread spread{0, INT32_MAX, 0};
  for (const ProcessFigures& process : figures.processes) {
    const auto& f = (alltoall ? process.alltoall : process.allgather)[algorithm];
    const int value = f ? field(*f) : 0;
    spread.total += value;
    spread.least = std::min(spread.least, value);
    spread.most = std::max(spread.most, value);
  }
  if (figures.processes.empty()) spread.least = 0;
  return spread;
}

std::string spread_text(const Spread& s) {
  return std::to_string(s.total) + " (" + std::to_string(s.least) + ".." + std::to_string(s.most) + ")";
}

// Averages over the processes.
struct Means {
  double messages = 0, bytes = 0;
  long long most_messages = 0, most_bytes = 0;
};

Means means_of(const std::vector<SetupTraffic>& traffic) {
  Means means;
  for (const SetupTraffic& t : traffic) {
    means.messages += static_cast<double>(t.messages);
    means.bytes += static_cast<double>(t.bytes);
    means.most_messages = std::max(means.most_messages, t.messages);
    means.most_bytes = std::max(means.most_bytes, t.bytes);
  }
  if (!traffic.empty()) {
    means.messages /= static_cast<double>(traffic.size());
    means.bytes /= static_cast<double>(traffic.size());
  }
  return means;
}

// What every set-up's JSON holds: rounds, traffic per process and the critical path.
std::string json_traffic(const SetupFigures& s, int p) {
  const Means means = means_of(s.traffic);
  char text[400];
  std::snprintf(text, sizeof text,
                "\"rounds\":%d,\"mean_messages\":%.2f,\"max_messages\":%lld,\"mean_bytes\":%.1f,\"max_bytes\":%lld,"
                "\"path_messages\":%lld,\"path_bytes\":%lld,\"path_compute_s\":%.6f,\"max_process_compute_s\":%.6f,"
                "\"critical_path_s\":%.6f,\"simulated_wall_s\":%.3f",
                s.rounds, means.messages, means.most_messages, means.bytes, means.most_bytes, s.path_messages,
                s.path_bytes, s.path_compute, s.most_compute, s.critical_path(CostModel{}, p), s.wall_seconds);
  return text;
}

std::string json_setup(const GraphFigures& figures) {
  if (!figures.setup) return "null";
  const CombiningParameters& c = figures.setup->parameters;
  char text[200];
  std::snprintf(text, sizeof text, "{\"threshold\":%d,\"steps\":%d,\"candidates\":%d,\"matching_rounds\":%d,\"phases\":%d,",
                c.threshold, c.steps, c.candidates, c.matching_rounds, c.phases);
  return text + json_traffic(*figures.setup, figures.size) + "}";
}

std::string json_routing_setup(const GraphFigures& figures) {
  if (!figures.routing_setup) return "null";
  return "{\"extents\":[" + joined(figures.routing_setup->extents) + "]," +
         json_traffic(*figures.routing_setup, figures.size) + "}";
}

// What every set-up's text says: rounds, traffic per process and the critical path under the model.
std::string traffic_text(const SetupFigures& s, int p) {
  const Means means = means_of(s.traffic);
  const CostModel model;
  char text[800];
  std::snprintf(text, sizeof text,
                "  %d rounds; per process sent: %.1f messages (most %lld), %.0f bytes (most %lld)\n"
                "  critical path: %lld messages, %lld bytes, %.4f s compute (CPU; the most one process computes in "
                "all: %.4f s);\n  with latency %.0f us x ceil(log2 p) a round, %.1f us a message, %.1f ns a byte: %.4f s "
                "(simulated in %.2f s)\n",
                s.rounds, means.messages, means.most_messages, means.bytes, means.most_bytes, s.path_messages,
                s.path_bytes, s.path_compute, s.most_compute, model.latency * 1e6, model.per_message * 1e6,
                model.per_byte * 1e9, s.critical_path(model, p), s.wall_seconds);
  return text;
}

std::string setup_text(const GraphFigures& figures) {
  if (!figures.setup) return "";
  const CombiningParameters& c = figures.setup->parameters;
  char text[300];
  std::snprintf(text, sizeof text,
                "\nset-up of the planners that need it (simulated transport): threshold %d, %d steps, %d candidates, "
                "%d matching rounds, at most %d phases\n",
                c.threshold, c.steps, c.candidates, c.matching_rounds, c.phases);
  return text + traffic_text(*figures.setup, figures.size);
}

std::string routing_setup_text(const GraphFigures& figures) {
  if (!figures.routing_setup) return "";
  return "\ngraph-routing's set-up on the grid " + joined(figures.routing_setup->extents) + " (simulated transport):\n" +
         traffic_text(*figures.routing_setup, figures.size);
}

std::string verification_text(const GraphFigures& figures) {
  std::string text;
  for (std::size_t a = 0; a < figures.wrong_bytes.size(); ++a)
    for (const bool alltoall : {true, false}) {
      const long long wrong = alltoall ? figures.wrong_bytes[a].first : figures.wrong_bytes[a].second;
      if (wrong >= 0)
        text += "verified in the simulator against the reference model: " + figures.algorithms[a] +
                (alltoall ? " alltoall: " : " allgather: ") + std::to_string(wrong) + " wrong bytes\n";
    }
  return text.empty() ? text : "\n" + text;
}

std::string replay_text(const GraphFigures& figures) {
  if (!figures.replay) return "";
  char line[200];
  std::snprintf(line, sizeof line, "\nreplayed with %.2f us send overhead and %.2f us latency a message, 4-byte blocks:\n",
                figures.replay->overhead * 1e6, figures.replay->latency * 1e6);
  std::string text = line;
  for (std::size_t a = 0; a < figures.replayed_seconds.size(); ++a) {
    const auto [alltoall, allgather] = figures.replayed_seconds[a];
    if (alltoall < 0 && allgather < 0) continue;
    auto time = [](double seconds) {
      char figure[32];
      if (seconds < 0) return std::string("       -   ");
      std::snprintf(figure, sizeof figure, "%8.2f us", seconds * 1e6);
      return std::string(figure);
    };
    std::snprintf(line, sizeof line, "  %-16s alltoall %s   allgather %s\n", figures.algorithms[a].c_str(),
                  time(alltoall).c_str(), time(allgather).c_str());
    text += line;
  }
  return text;
}

std::string json_replayed(const GraphFigures& figures) {
  if (!figures.replay) return "null";
  std::string out = "{";
  for (std::size_t a = 0; a < figures.replayed_seconds.size(); ++a) {
    char entry[200];
    std::snprintf(entry, sizeof entry, "%s\"%s\":[%.9g,%.9g]", a > 0 ? "," : "", figures.algorithms[a].c_str(),
                  figures.replayed_seconds[a].first, figures.replayed_seconds[a].second);
    out += entry;
  }
  return out + "}";
}

}  // namespace

double SetupFigures::critical_path(const CostModel& model, int p) const {
  const double barrier_depth = p > 1 ? std::ceil(std::log2(static_cast<double>(p))) : 0;
  return rounds * model.latency * (1 + barrier_depth) + static_cast<double>(path_messages) * model.per_message +
         static_cast<double>(path_bytes) * model.per_byte + path_compute;
}

// Every graph planner for every process (with the set-up's pattern where the planner needs it), and
// with options.verify every planner's schedules in the simulator.
GraphFigures compute_graph_figures(const Graph& graph, const GraphOptions& options) {
  GraphFigures figures;
  figures.size = graph.size();
  figures.edges = graph.edges();
  figures.node_size = options.combining.node_size;
  std::vector<const PlannerEntry*> graph_planners;
  // The set-up's patterns by node size: graph-combining pairs friends anywhere (0), node-combining
  // within nodes of options.combining.node_size; the first set-up's figures are reported.
  std::map<int, std::vector<CombiningPattern>> patterns;
  std::vector<RoutingPattern> routed;  // graph-routing's, per rank
  std::map<const SetupPlugin*, std::vector<std::shared_ptr<const SetupResult>>> other_setups;  // per rank
  auto node_size_of = [&](const PlannerEntry& planner) { return planner.needs_nodes ? options.combining.node_size : 0; };
  auto combines = [](const PlannerEntry& planner) { return planner.setup == &detail::combining_setup; };
  auto routes = [](const PlannerEntry& planner) { return planner.setup == &detail::routing_setup; };
  for (const PlannerEntry& planner : planners())
    if (planner.serves(NeighborhoodKind::graph)) {
      graph_planners.push_back(&planner);
      figures.algorithms.emplace_back(planner.name);
      if (planner.setup != nullptr && !combines(planner) && !routes(planner) && other_setups.count(planner.setup) == 0)
        other_setups[planner.setup] = run_plugin_setup(graph, *planner.setup);
      if (routes(planner) && !figures.routing_setup)
        figures.routing_setup = run_routing_setup(graph, options.routing_dims, routed);
      if (!combines(planner) || patterns.count(node_size_of(planner)) > 0) continue;
      CombiningParameters parameters = options.combining;
      parameters.node_size = node_size_of(planner);
      SetupFigures setup = run_setup(graph, parameters, patterns[parameters.node_size]);
      if (!figures.setup) figures.setup = std::move(setup);
    }
  // schedules[planner][collective][rank], kept only to verify or replay them
  const bool keep = options.verify || options.replay.has_value();
  std::vector<std::vector<std::vector<Schedule>>> schedules(graph_planners.size(), std::vector<std::vector<Schedule>>(2));
  for (int rank = 0; rank < graph.size(); ++rank) {
    GraphView view = graph.view(rank);
    ProcessFigures process{rank, static_cast<int>(view.sources.size()), static_cast<int>(view.destinations.size()), {}, {}};
    for (std::size_t a = 0; a < graph_planners.size(); ++a) {
      view.setup = nullptr;
      if (combines(*graph_planners[a]))
        view.setup = &patterns.at(node_size_of(*graph_planners[a]))[static_cast<std::size_t>(rank)];
      if (routes(*graph_planners[a])) view.setup = &routed.at(static_cast<std::size_t>(rank));
      if (const auto other = other_setups.find(graph_planners[a]->setup); other != other_setups.end() && !other->second.empty())
        view.setup = other->second[static_cast<std::size_t>(rank)].get();
      for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
        std::optional<Schedule> schedule;
        if (graph_planners[a]->serves(collective)) schedule = plan(Algorithm::named(graph_planners[a]->name), view, collective);
        (collective == Collective::alltoall ? process.alltoall : process.allgather)
            .push_back(figures_of(schedule, rank, options.combining.node_size));
        if (keep && schedule) schedules[a][collective == Collective::alltoall ? 0 : 1].push_back(std::move(*schedule));
      }
    }
    figures.processes.push_back(std::move(process));
  }
  for (std::size_t a = 0; a < graph_planners.size(); ++a) {
    auto verified = [&](std::size_t c, Collective collective) {
      return options.verify && graph_planners[a]->serves(collective) ? wrong_bytes(graph, collective, schedules[a][c]) : -1;
    };
    figures.wrong_bytes.emplace_back(verified(0, Collective::alltoall), verified(1, Collective::allgather));
    auto replayed = [&](std::size_t c, Collective collective) {
      if (!options.replay || !graph_planners[a]->serves(collective)) return -1.0;
      return replayed_call(schedules[a][c], *options.replay, 4);
    };
    figures.replayed_seconds.emplace_back(replayed(0, Collective::alltoall), replayed(1, Collective::allgather));
  }
  figures.replay = options.replay;
  return figures;
}

std::string to_json(const GraphFigures& figures) {
  std::string out = "{\"p\":" + std::to_string(figures.size) + ",\"edges\":" + std::to_string(figures.edges) +
                    ",\"setup\":" + json_setup(figures) + ",\"routing_setup\":" + json_routing_setup(figures) +
                    ",\"replayed_s\":" + json_replayed(figures) +
                    ",\"processes\":[";
  for (std::size_t r = 0; r < figures.processes.size(); ++r) {
    const ProcessFigures& process = figures.processes[r];
    if (r > 0) out += ",";
    out += "{\"rank\":" + std::to_string(process.rank) + ",\"in\":" + std::to_string(process.in) +
           ",\"out\":" + std::to_string(process.out) + ",\"alltoall\":" + json_collective(figures, process.alltoall) +
           ",\"allgather\":" + json_collective(figures, process.allgather) + "}";
  }
  return out + "]}";
}

std::string to_table(const GraphFigures& figures) {
  std::ostringstream out;
  out << "p = " << figures.size << " processes, " << figures.edges << " edges; per call, over all processes "
      << "(smallest..largest per process):\n\n";
  char line[200];
  const bool nodes = figures.node_size > 0;
  std::snprintf(line, sizeof line, "%-10s %-16s %22s %10s %22s %12s%s\n", "collective", "algorithm", "messages",
                "mean", "volume", "max phases", nodes ? "  off-node (mean)" : "");
  out << line;
  for (const bool alltoall : {true, false})
    for (std::size_t a = 0; a < figures.algorithms.size(); ++a) {
      if (!figures.processes.empty() && !(alltoall ? figures.processes[0].alltoall : figures.processes[0].allgather)[a])
        continue;  // a planner that does not serve this collective
      const Spread messages = spread_of(figures, a, alltoall, [](const Figures& f) { return f.messages; });
      const Spread volume = spread_of(figures, a, alltoall, [](const Figures& f) { return f.volume; });
      const Spread phases = spread_of(figures, a, alltoall, [](const Figures& f) { return f.phases; });
      const Spread off_node = spread_of(figures, a, alltoall, [](const Figures& f) { return f.off_node; });
      const double processes = std::max<double>(1, static_cast<double>(figures.processes.size()));
      std::snprintf(line, sizeof line, "%-10s %-16s %22s %10.2f %22s %12d", alltoall ? "alltoall" : "allgather",
                    figures.algorithms[a].c_str(), spread_text(messages).c_str(),
                    static_cast<double>(messages.total) / processes, spread_text(volume).c_str(), phases.most);
      out << line;
      if (nodes) out << "  " << static_cast<double>(off_node.total) / processes;
      out << "\n";
    }
  out << setup_text(figures) << routing_setup_text(figures) << verification_text(figures) << replay_text(figures);
  out << "\nper process: rank, in-degree, out-degree, then messages/phases/volume per planner and collective\n";
  for (const ProcessFigures& process : figures.processes) {
    out << process.rank << " " << process.in << " " << process.out;
    for (std::size_t a = 0; a < figures.algorithms.size(); ++a)
      for (const auto* list : {&process.alltoall, &process.allgather}) {
        const auto& f = (*list)[a];
        out << "  " << figures.algorithms[a] << (list == &process.alltoall ? ".alltoall " : ".allgather ");
        if (f) out << f->messages << "/" << f->phases << "/" << f->volume;
        else out << "-";
      }
    out << "\n";
  }
  return out.str();
}

}  // namespace cartcoll::plan_tool
