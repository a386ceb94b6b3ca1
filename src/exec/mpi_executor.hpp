#pragma once
// The MPI executor: lowers a Schedule plus a Layout to one send and one receive per round (a struct
// datatype over the round's blocks where it has more than one) and runs the phases in order.
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "cartcoll/layout.hpp"
#include "cartcoll/schedule.hpp"
#include "block_arena.hpp"
#include "mpi_handles.hpp"
#include "type_cache.hpp"

namespace cartcoll::detail {

// What an execution may take from a TypeCache instead of making its own: struct datatypes (any
// call), and the temp buffer (only a blocking call: nonblocking ones may overlap).
struct Reuse {
  TypeCache* cache = nullptr;
  bool temp = false;
};

class Execution {
 public:
  // once: each start posts MPI_Isend/MPI_Irecv. persistent: MPI_Send_init/MPI_Recv_init are built
  // here and every start is an MPI_Startall per phase.
  enum class Mode { once, persistent };

  Execution(const Schedule& schedule, const Layout& layout, MPI_Comm comm, int tag, Mode mode, Reuse reuse = {});
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  void start();
  bool test();  // progresses through completed phases; true when the whole schedule is done
  void wait();
  bool active() const noexcept { return active_; }

 private:
  struct Message {
    void* buffer;
    int count;
    MPI_Datatype type;
    int peer;
    bool is_send;
  };
  struct LoweredPhase {
    std::vector<Message> messages;  // receives first, then sends
    std::vector<MPI_Request> requests;
    std::vector<RequestSlot> persistent;  // owns the persistent requests, if any
    std::vector<std::pair<BlockSpec, BlockSpec>> copies;
  };

  BlockSpec resolve(BlockRef ref) const;
  Message lower(const Transfer& transfer, bool is_send);
  void lower_phase(const Phase& phase);
  void layout_temp(int slots);
  void begin_phase();
  void finish_phase();

  const Layout* layout_ = nullptr;
  MPI_Comm comm_;
  int tag_;
  Mode mode_;
  std::vector<LoweredPhase> phases_;
  std::vector<Datatype> owned_types_;
  Reuse reuse_;
  std::vector<std::shared_ptr<const Datatype>> shared_types_;
  BlockArena own_temp_;
  std::span<const BlockSpec> temp_blocks_;  // own_temp_'s or the cache's
  std::vector<std::byte> pack_scratch_;
  std::size_t current_ = 0;
  bool active_ = false;
};

}  // namespace cartcoll::detail
