#include "graph_figures.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "cartcoll/plan.hpp"

namespace cartcoll::plan_tool {

namespace {

std::optional<Figures> planned(const PlannerEntry& planner, const GraphView& view, Collective collective) {
  if (!planner.serves(collective)) return std::nullopt;
  const Schedule schedule = plan(Algorithm::named(planner.name), view, collective);
  return Figures{schedule.messages(), schedule.communication_phases(), schedule.volume()};
}

std::string json_figures(const std::optional<Figures>& f) {
  if (!f) return "null";
  return "{\"messages\":" + std::to_string(f->messages) + ",\"phases\":" + std::to_string(f->phases) +
         ",\"volume\":" + std::to_string(f->volume) + "}";
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

}  // namespace

GraphFigures compute_graph_figures(const Graph& graph) {
  GraphFigures figures;
  figures.size = graph.size();
  figures.edges = graph.edges();
  std::vector<const PlannerEntry*> graph_planners;
  for (const PlannerEntry& planner : planners())
    if (planner.serves(NeighborhoodKind::graph)) {
      graph_planners.push_back(&planner);
      figures.algorithms.emplace_back(planner.name);
    }
  for (int rank = 0; rank < graph.size(); ++rank) {
    const GraphView view = graph.view(rank);
    ProcessFigures process{rank, static_cast<int>(view.sources.size()), static_cast<int>(view.destinations.size()), {}, {}};
    for (const PlannerEntry* planner : graph_planners) {
      process.alltoall.push_back(planned(*planner, view, Collective::alltoall));
      process.allgather.push_back(planned(*planner, view, Collective::allgather));
    }
    figures.processes.push_back(std::move(process));
  }
  return figures;
}

std::string to_json(const GraphFigures& figures) {
  std::string out = "{\"p\":" + std::to_string(figures.size) + ",\"edges\":" + std::to_string(figures.edges) +
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
  std::snprintf(line, sizeof line, "%-10s %-10s %22s %22s %12s\n", "collective", "algorithm", "messages", "volume",
                "max phases");
  out << line;
  for (const bool alltoall : {true, false})
    for (std::size_t a = 0; a < figures.algorithms.size(); ++a) {
      const Spread messages = spread_of(figures, a, alltoall, [](const Figures& f) { return f.messages; });
      const Spread volume = spread_of(figures, a, alltoall, [](const Figures& f) { return f.volume; });
      const Spread phases = spread_of(figures, a, alltoall, [](const Figures& f) { return f.phases; });
      std::snprintf(line, sizeof line, "%-10s %-10s %22s %22s %12d\n", alltoall ? "alltoall" : "allgather",
                    figures.algorithms[a].c_str(), spread_text(messages).c_str(), spread_text(volume).c_str(),
                    phases.most);
      out << line;
    }
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
