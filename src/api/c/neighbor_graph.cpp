// SPDX-License-Identifier: BSD-3-Clause
// C API: CC_Dist_graph_create_adjacent and CC_Dist_graph_create. The C arrays are read inside the
// collective's argument check, so a bad argument on one process fails every process alike.
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/graph_create.hpp"
#include "cartcoll/neighbor.h"
#include "errors.hpp"

using namespace cartcoll;

namespace {

std::vector<int> read_array(const int* values, int n, const char* what) {
  if (n < 0) throw Error(Errc::arg, std::string("a negative ") + what);
  if (n > 0 && values == nullptr) throw Error(Errc::arg, std::string(what) + ": NULL array");
  return n == 0 ? std::vector<int>() : std::vector<int>(values, values + n);
}

// MPI_UNWEIGHTED: no weights; MPI_WEIGHTS_EMPTY: none because there are no neighbors to weigh.
std::optional<std::vector<int>> read_weights(const int* weights, int n, const char* what) {
  if (weights == MPI_UNWEIGHTED) return std::nullopt;
  if (weights == MPI_WEIGHTS_EMPTY) {
    if (n != 0) throw Error(Errc::arg, std::string(what) + ": MPI_WEIGHTS_EMPTY for a non-zero degree");
    return std::vector<int>();
  }
  return read_array(weights, n, what);
}

void require_output(const MPI_Comm* comm_dist_graph) {
  if (comm_dist_graph == nullptr) throw Error(Errc::arg, "comm_dist_graph is NULL");
}

// A NULL output is found by the collective's argument check (require_output), so the other
// processes do not wait for this one.
template <typename Create>
int create(MPI_Comm comm_old, MPI_Comm* comm_dist_graph, Create&& make) {
  if (comm_dist_graph != nullptr) *comm_dist_graph = MPI_COMM_NULL;
  return capi::guarded(comm_old, [&] {
    const MPI_Comm made = make();
    *comm_dist_graph = made;
  });
}

}  // namespace

extern "C" {

int CC_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                  int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                  int reorder, MPI_Comm* comm_dist_graph) {
  return create(comm_old, comm_dist_graph, [&] {
    return detail::create_graph_adjacent(
        comm_old,
        [&] {
          require_output(comm_dist_graph);
          detail::GraphSpec spec{read_array(sources, indegree, "indegree"),
                                 read_array(destinations, outdegree, "outdegree"),
                                 read_weights(sourceweights, indegree, "sourceweights"),
                                 read_weights(destweights, outdegree, "destweights")};
          if (spec.source_weights.has_value() != spec.destination_weights.has_value())
            throw Error(Errc::arg, "MPI_UNWEIGHTED for one direction only");
          return spec;
        },
        info, reorder != 0);
  });
}

int CC_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                         const int destinations[], const int weights[], MPI_Info info, int reorder,
                         MPI_Comm* comm_dist_graph) {
  return create(comm_old, comm_dist_graph, [&] {
    return detail::create_graph(
        comm_old,
        [&] {
          require_output(comm_dist_graph);
          detail::EdgeSpec spec{read_array(sources, n, "n"), read_array(degrees, n, "n"), {}, std::nullopt};
          long long edges = 0;
          for (int degree : spec.degrees) {
            if (degree < 0) throw Error(Errc::arg, "a negative degree");
            edges += degree;
          }
          if (edges > 0x7fffffff) throw Error(Errc::arg, "more edges than an int counts");
          spec.destinations = read_array(destinations, static_cast<int>(edges), "destinations");
          spec.weights = read_weights(weights, static_cast<int>(edges), "weights");
          return spec;
        },
        info, reorder != 0);
  });
}

}  // extern "C"
