// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Result rows: the table on stdout and the CSV file (appended; header written when the file is new).
#include <cstdio>
#include <string>

namespace bench {

// The first line of MPI_Get_library_version, and MPI_Get_version as "3.1".
std::string mpi_library();
std::string mpi_version();
std::string csv_escape(const std::string& text);

// Opens `path` for appending and writes `header` if the file did not exist; nullptr for an empty path.
FILE* open_csv(const std::string& path, const char* header);

}  // namespace bench
