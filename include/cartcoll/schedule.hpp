#pragma once
// A schedule is plain data: what one process sends, receives and copies, phase by phase.
// Planners emit it; executors (MPI, simulator) run it. Nothing here knows an algorithm.
#include <cstdint>
#include <vector>

namespace cartcoll {

// Which collective family a schedule serves: alltoall sends block i to target i;
// allgather sends the one send block (index 0) to every target.
enum class Collective : std::uint8_t { alltoall, allgather };

// The three buffers a block can live in. `temp` slots are laid out like receive blocks (see temp_slots).
enum class Buffer : std::uint8_t { send, recv, temp };

struct BlockRef {
  Buffer buffer;
  int block;
  friend bool operator==(const BlockRef&, const BlockRef&) = default;
};

inline constexpr int no_peer = -1;

// One message: to (or from) `peer`, carrying `blocks` in this order, combined into one datatype.
struct Transfer {
  int peer = no_peer;
  std::vector<BlockRef> blocks;
};

// A round is one send and one receive that may proceed concurrently with the phase's other rounds.
// Either side may be absent (peer == no_peer): a neighbor outside a non-periodic mesh.
struct Round {
  Transfer send;
  Transfer recv;
};

// A block copied locally (zero offset, offsets that wrap onto the process itself, repeated blocks).
struct Copy {
  BlockRef from;
  BlockRef to;
};

// Rounds of a phase run concurrently; the copies run after all of them have completed.
// Phase k+1 starts only when phase k is complete at this process.
struct Phase {
  std::vector<Round> rounds;
  std::vector<Copy> copies;
};

struct Schedule {
  Collective collective = Collective::alltoall;
  int block_count = 0;  // t: receive blocks (and temp slots); alltoall also has t send blocks
  std::vector<Phase> phases;

  // Figures of merit, per call of this process.
  int messages() const;  // point-to-point sends (local copies not counted)
  int volume() const;    // blocks sent, forwarding included
  int communication_phases() const;  // phases that contain at least one message
  // Temp slot s is laid out like receive block s % block_count; planners use slots t..2t-1 as a
  // second temp buffer where a receive block must stay untouched (non-periodic meshes).
  int temp_slots() const;
  bool uses_temp() const;
};

}  // namespace cartcoll
