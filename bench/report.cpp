// SPDX-License-Identifier: BSD-3-Clause
#include "report.hpp"

#include <mpi.h>

#include <filesystem>

namespace bench {

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string library(text, static_cast<std::size_t>(length));
  library = library.substr(0, library.find('\n'));
  for (char& c : library)
    if (c == '\t') c = ' ';
  while (!library.empty() && (library.back() == ' ' || library.back() == '\r' || library.back() == '\0'))
    library.pop_back();
  return library;
}

std::string mpi_version() {
  int version = 0, subversion = 0;
  MPI_Get_version(&version, &subversion);
  return std::to_string(version) + "." + std::to_string(subversion);
}

std::string csv_escape(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

FILE* open_csv(const std::string& path, const char* header) {
  if (path.empty()) return nullptr;
  const bool exists = std::filesystem::exists(path);
  FILE* file = std::fopen(path.c_str(), "a");
  if (!file) {
    std::perror(path.c_str());
    return nullptr;
  }
  if (!exists) std::fprintf(file, "%s\n", header);
  return file;
}

}  // namespace bench
