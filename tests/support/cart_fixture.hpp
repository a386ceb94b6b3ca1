// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Small helpers shared by the MPI tests.
#include <mpi.h>

#include <string>
#include <vector>

#include "cartcoll/cartcoll.h"
#include "cartcoll/topology.hpp"

namespace support {

// An MPI_Info with cartcoll_algorithm set (MPI_INFO_NULL for an empty name); freed on destruction.
class AlgorithmInfo {
 public:
  explicit AlgorithmInfo(const std::string& algorithm);
  ~AlgorithmInfo();
  AlgorithmInfo(const AlgorithmInfo&) = delete;
  AlgorithmInfo& operator=(const AlgorithmInfo&) = delete;
  MPI_Info get() const { return info_; }
  // Another key (graph-combining's parameters, say); makes the info if the name was empty.
  void set(const std::string& key, const std::string& value);

 private:
  MPI_Info info_ = MPI_INFO_NULL;
};

// A d-dimensional torus over all of MPI_COMM_WORLD (MPI_Dims_create) with the Moore neighborhood of
// radius 1 (3^d - 1 offsets, lexicographic), made by Cart_neighborhood_create with the algorithm
// named (none: the default).
MPI_Comm moore_torus(int d, const std::string& algorithm = "");

// Cart_neighborhood_create over comm for grid and offsets; returns its error code.
int create(MPI_Comm comm, const cartcoll::Grid& grid, const cartcoll::Offsets& offsets, MPI_Info info,
           MPI_Comm* cartcomm);

// MPI_Cart_create over comm with grid's dimensions and periods (no cartcoll neighborhood); processes
// beyond the grid get MPI_COMM_NULL.
MPI_Comm mpi_cart_create(MPI_Comm comm, const cartcoll::Grid& grid, int reorder);

int world_size();
int world_rank();

// The registered planners that serve Cartesian neighborhoods, and "auto" after them if `with_auto`:
// what sweeps over "every algorithm" on Cartesian communicators run, so that a newly registered
// planner is tested without touching the tests (graph-only planners, and those that plan only send
// blocks that share bytes, have tests of their own).
std::vector<std::string> algorithm_names(bool with_auto);
// An algorithm's name as a test name (gtest takes letters, digits and '_': node-combining -> node_combining).
std::string algorithm_test_name(std::string name);

}  // namespace support
