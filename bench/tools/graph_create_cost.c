// SPDX-License-Identifier: BSD-3-Clause
// What libcartcoll_mpi's work at MPI_Dist_graph_create(_adjacent) costs an unmodified program: a
// second preloaded library, put ahead of the layer, that times each such call twice, around the
// whole call (MPI's creation and the layer's set-up, detection and agreement) and around the
// PMPI_Dist_graph_create(_adjacent) inside it (MPI's own creation: the layer calls it through the
// PMPI name, which this library interposes too). The difference is the layer's creation work. At
// MPI_Finalize rank 0 prints, summed over the calls of each process: the calls (and the PMPI calls
// inside them: one each where the layer is preloaded), the whole time,
// MPI's part and the layer's (the slowest process's sum, and the mean over processes; and the layer's
// part of the first call alone, which holds its one-time start), and the time
// from the end of MPI_Init(_thread) to MPI_Finalize (the slowest process's). Without the layer
// preloaded it times MPI's creation alone (the layer's column is then 0). Not part of the build:
//   mpicc -O2 -shared -fPIC bench/tools/graph_create_cost.c -o graph_create_cost.so -ldl
//   mpirun -n 4 -x LD_PRELOAD=$PWD/graph_create_cost.so:$PWD/build/openmpi/src/interpose/libcartcoll_mpi.so PROGRAM
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

static double whole_seconds, mpi_seconds, init_end, first_layer_seconds;  // first: the first call's layer part
static long calls, pmpi_calls;  // pmpi_calls: PMPI_Dist_graph_create* inside the calls
static int inside;  // within a timed MPI_Dist_graph_create*: the PMPI call inside is MPI's part

typedef int (*adjacent_fn)(MPI_Comm, int, const int[], const int[], int, const int[], const int[], MPI_Info, int,
                           MPI_Comm*);
typedef int (*general_fn)(MPI_Comm, int, const int[], const int[], const int[], const int[], MPI_Info, int, MPI_Comm*);

static void* next(const char* name) {
  void* found = dlsym(RTLD_NEXT, name);
  if (found == NULL) {
    fprintf(stderr, "graph_create_cost: no %s after this library\n", name);
    PMPI_Abort(MPI_COMM_WORLD, 3);
  }
  return found;
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* graph) {
  static adjacent_fn call;
  if (call == NULL) call = (adjacent_fn)next("MPI_Dist_graph_create_adjacent");
  const double started = PMPI_Wtime();
  ++inside;
  const int code =
      call(comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder, graph);
  --inside;
  whole_seconds += PMPI_Wtime() - started;
  if (++calls == 1) first_layer_seconds = pmpi_calls > 0 ? whole_seconds - mpi_seconds : 0;
  return code;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm* graph) {
  static adjacent_fn call;
  if (call == NULL) call = (adjacent_fn)next("PMPI_Dist_graph_create_adjacent");
  const double started = PMPI_Wtime();
  const int code =
      call(comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder, graph);
  if (inside) mpi_seconds += PMPI_Wtime() - started, ++pmpi_calls;
  return code;
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm* graph) {
  static general_fn call;
  if (call == NULL) call = (general_fn)next("MPI_Dist_graph_create");
  const double started = PMPI_Wtime();
  ++inside;
  const int code = call(comm, n, sources, degrees, destinations, weights, info, reorder, graph);
  --inside;
  whole_seconds += PMPI_Wtime() - started;
  if (++calls == 1) first_layer_seconds = pmpi_calls > 0 ? whole_seconds - mpi_seconds : 0;
  return code;
}

int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[], const int destinations[],
                           const int weights[], MPI_Info info, int reorder, MPI_Comm* graph) {
  static general_fn call;
  if (call == NULL) call = (general_fn)next("PMPI_Dist_graph_create");
  const double started = PMPI_Wtime();
  const int code = call(comm, n, sources, degrees, destinations, weights, info, reorder, graph);
  if (inside) mpi_seconds += PMPI_Wtime() - started, ++pmpi_calls;
  return code;
}

// What the calls do inside, beyond MPI's creation: the collective operations (and communicator
// duplications, and sends) started within them, counted on rank 0 whichever name (MPI_ or PMPI_) the layer uses.
enum {
  allreduce, iallreduce, allgather, allgatherv, alltoall, bcast, ibcast, barrier, ibarrier, comm_dup, comm_idup,
  comm_split_type, isend, counted
};
static const char* const counted_names[counted] = {"Allreduce", "Iallreduce", "Allgather",  "Allgatherv",
                                                   "Alltoall",  "Bcast",      "Ibcast",     "Barrier",
                                                   "Ibarrier",  "Comm_dup",   "Comm_idup",  "Comm_split_type",
                                                   "Isend"};
static long counts[counted];

#define COUNTED(NAME, INDEX, PARAMETERS, ARGUMENTS)                                  \
  int MPI_##NAME PARAMETERS {                                                       \
    static int(*call) PARAMETERS;                                                   \
    if (call == NULL) call = (int(*) PARAMETERS)next("MPI_" #NAME);                 \
    if (inside) ++counts[INDEX];                                                    \
    return call ARGUMENTS;                                                          \
  }                                                                                 \
  int PMPI_##NAME PARAMETERS {                                                      \
    static int(*call) PARAMETERS;                                                   \
    if (call == NULL) call = (int(*) PARAMETERS)next("PMPI_" #NAME);                \
    if (inside) ++counts[INDEX];                                                    \
    return call ARGUMENTS;                                                          \
  }

COUNTED(Allreduce, allreduce, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),
        (s, r, n, t, o, c))
COUNTED(Iallreduce, iallreduce,
        (const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c, MPI_Request* q), (s, r, n, t, o, c, q))
COUNTED(Allgather, allgather, (const void* s, int n, MPI_Datatype t, void* r, int m, MPI_Datatype u, MPI_Comm c),
        (s, n, t, r, m, u, c))
COUNTED(Allgatherv, allgatherv,
        (const void* s, int n, MPI_Datatype t, void* r, const int m[], const int d[], MPI_Datatype u, MPI_Comm c),
        (s, n, t, r, m, d, u, c))
COUNTED(Alltoall, alltoall, (const void* s, int n, MPI_Datatype t, void* r, int m, MPI_Datatype u, MPI_Comm c),
        (s, n, t, r, m, u, c))
COUNTED(Bcast, bcast, (void* b, int n, MPI_Datatype t, int root, MPI_Comm c), (b, n, t, root, c))
COUNTED(Ibcast, ibcast, (void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request* q),
        (b, n, t, root, c, q))
COUNTED(Barrier, barrier, (MPI_Comm c), (c))
COUNTED(Ibarrier, ibarrier, (MPI_Comm c, MPI_Request* q), (c, q))
COUNTED(Comm_dup, comm_dup, (MPI_Comm c, MPI_Comm* d), (c, d))
COUNTED(Comm_idup, comm_idup, (MPI_Comm c, MPI_Comm* d, MPI_Request* q), (c, d, q))
COUNTED(Isend, isend, (const void* b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request* q),
        (b, n, t, to, tag, c, q))
COUNTED(Comm_split_type, comm_split_type, (MPI_Comm c, int t, int k, MPI_Info i, MPI_Comm* d), (c, t, k, i, d))

int MPI_Init(int* argc, char*** argv) {
  const int code = ((int (*)(int*, char***))next("MPI_Init"))(argc, argv);
  init_end = PMPI_Wtime();
  return code;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int code = ((int (*)(int*, char***, int, int*))next("MPI_Init_thread"))(argc, argv, required, provided);
  init_end = PMPI_Wtime();
  return code;
}

int MPI_Finalize(void) {
  // Without the layer (no PMPI call inside), MPI's part is the whole call.
  const double mpi = pmpi_calls > 0 ? mpi_seconds : whole_seconds;
  double mine[7] = {whole_seconds, mpi, whole_seconds - mpi, PMPI_Wtime() - init_end, (double)calls,
                    (double)pmpi_calls, first_layer_seconds},
         most[7], sum[7];
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  PMPI_Reduce(mine, most, 7, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  PMPI_Reduce(mine, sum, 7, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("graph_create_cost: processes %d calls_max %.0f pmpi_calls_max %.0f whole_max_s %.6f mpi_max_s %.6f "
           "layer_max_s %.6f layer_mean_s %.6f layer_first_max_s %.6f run_max_s %.6f\n",
           size, most[4], most[5], most[0], most[1], most[2], sum[2] / size, most[6], most[3]);
  if (rank == 0 && calls > 0) {
    printf("graph_create_cost: rank 0, per call, inside:");
    for (int i = 0; i < counted; ++i)
      if (counts[i] > 0) printf(" %s %.2f", counted_names[i], (double)counts[i] / (double)calls);
    printf("\n");
  }
  fflush(stdout);
  return ((int (*)(void))next("MPI_Finalize"))();
}
