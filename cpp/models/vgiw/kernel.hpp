// The VGIW model's workload (docs/MODELS.md §7): a kernel as a control-flow
// graph of basic blocks over a number of threads.  Block ids are the
// compiler's schedule, a reverse post-order (VGIW §3.1: entry 0, a back edge
// goes to a smaller id, at most two successors).  Each block has an operation
// mix, a memory intensity and a branch model; live values crossing blocks are
// derived from the blocks' declared defs and uses (§2, "Live Value Cache").
// Every machine (simt, sgmf, vgiw) asks the same PathOracle where a thread
// goes next, so each thread executes exactly its own path on every machine.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/model_input.hpp"
#include "core/rng.hpp"
#include "core/run.hpp"

namespace tbdse::vgiw {

// How a block with two successors picks one (succ[0] = "taken").
enum class BranchKind {
  NONE,         // zero or one successor
  PROBABILITY,  // a fresh draw at every visit: succ[0] with probability p
  PREDICATE,    // one draw per thread and block: the same choice at every visit (forward only)
  LOOP,         // back edge succ[0] taken trips-1 times, trips per thread in [trips_min, trips_max]
  PATHS,        // the kernel's explicit per-thread paths decide
};

// How a block's global accesses walk memory (docs/models/vgiw.md "Memory"):
// COALESCED, thread t reads word t of an array; STRIDED, word t x 32 (one
// 128-byte line per thread, as a transposing or column walk); SCATTERED, a
// pseudo-random word of a 16 MB region (a gather through an index).
enum class MemPattern { COALESCED, STRIDED, SCATTERED };

struct BasicBlock {
  std::string name;
  // Operations one thread executes in this block (its dataflow graph's nodes).
  std::int64_t alu = 1;      // FPU-ALU operations (compute units, Table 1: 32)
  std::int64_t special = 0;  // non-pipelined ops: div, sqrt, transcendental (SCUs: 12)
  std::int64_t ldst = 0;     // global-memory loads and stores (LDSTUs: 16)
  // Live values read from / written to the LVC (LVUs: 16); -1 = derived from defs/uses.
  std::int64_t lv_loads = -1;
  std::int64_t lv_stores = -1;
  // Split/join units (SJUs: 16) of one replica; -1 = ceil(ldst / 2) (tbdse's:
  // joins order a thread's memory operations, §3.5).
  std::int64_t split_join = -1;
  // Share (0..1) of the block's load/store accesses that miss the L1 and
  // move a 4-byte word from DRAM (tbdse's reading of "memory intensity").
  double mem_intensity = 0.0;
  MemPattern pattern = MemPattern::COALESCED;  // how the accesses walk memory
  std::vector<std::int32_t> succ;  // 0, 1 or 2 successor ids
  BranchKind branch = BranchKind::NONE;
  double p = 0.5;  // PROBABILITY / PREDICATE: chance of succ[0]
  std::int64_t trips_min = 1, trips_max = 1;  // LOOP: iterations per thread
  std::vector<std::string> defs, uses;        // value names (live values are derived)

  std::int64_t simt_instructions() const { return alu + special + ldst; }
};

// Unit demand of one replica of a block, per the six unit types of §3.5.
enum UnitType { ALU = 0, SPECIAL, LDST, LVU, SJU, CVU, kUnitTypes };
using UnitCounts = std::array<std::int64_t, kUnitTypes>;
const char* unit_type_name(int type);

struct ExpectedVisits;  // run_size.hpp

class CfgKernel final : public ModelInput {
 public:
  // Validates and derives live values and immediate post-dominators;
  // ConfigError naming the block and the key and what is valid otherwise:
  // unreachable blocks, more than two successors, out-of-range ids, a branch
  // model that does not fit the successors, a 'predicate' branch on a back
  // edge, a block that cannot reach an exit along edges a thread can take,
  // paths that are not walks of the CFG from block 0 to an exit, too many
  // threads.  Any edge to an id <= its source's is a back edge (a loop); the
  // ids are not checked to be a reverse post-order beyond that.
  // `block_threads`: threads per thread block of the kernel's launch (the
  // CUDA source's block size; simt forms warps within blocks and holds
  // blocks resident), 0 = the simt scheme's block_threads.
  CfgKernel(std::string name, std::vector<BasicBlock> blocks, std::int64_t threads,
            std::vector<std::vector<std::int32_t>> paths = {}, std::int64_t block_threads = 0);

  std::string kind() const override { return "cfg"; }
  std::uint64_t content_hash() const override { return hash_; }
  double weight() const override;
  std::map<std::string, double> sizes() const override;

  const std::string& name() const { return name_; }
  const std::vector<BasicBlock>& blocks() const { return blocks_; }
  std::int32_t block_count() const { return static_cast<std::int32_t>(blocks_.size()); }
  std::int64_t threads() const { return threads_; }
  std::int64_t block_threads() const { return block_threads_; }  // 0: the scheme's
  const std::vector<std::vector<std::int32_t>>& paths() const { return paths_; }
  // The virtual exit node's id (= block_count()).
  std::int32_t exit_id() const { return block_count(); }
  // Blocks one thread may pass before its walk counts as an endless loop:
  // 4 x blocks x the product of the 'loop' blocks' trips_max, within
  // [2^20, 2^30] (a 'predicate' branch inside a loop can trap a thread).
  std::int32_t max_steps() const { return max_steps_; }
  // Immediate post-dominator of each block (exit_id() for the virtual exit).
  const std::vector<std::int32_t>& ipdom() const { return ipdom_; }
  // Live-value loads and stores per block after derivation.
  std::int64_t lv_loads(std::int32_t b) const { return lv_loads_[b]; }
  std::int64_t lv_stores(std::int32_t b) const { return lv_stores_[b]; }
  // Units one replica of block b needs (CVU: one per replica injects thread ids).
  const UnitCounts& units(std::int32_t b) const { return units_[b]; }
  bool is_back_edge(std::int32_t from, std::int32_t to) const { return to <= from; }
  // Blocks one thread is expected to execute (run_size.hpp), computed once.
  const ExpectedVisits& expected_visits() const { return *visits_; }

 private:
  std::string name_;
  std::vector<BasicBlock> blocks_;
  std::int64_t threads_;
  std::int64_t block_threads_ = 0;
  std::int32_t max_steps_ = 0;
  std::vector<std::vector<std::int32_t>> paths_;
  std::vector<std::int32_t> ipdom_;
  std::vector<std::int64_t> lv_loads_, lv_stores_;
  std::vector<UnitCounts> units_;
  std::shared_ptr<const ExpectedVisits> visits_;
  std::uint64_t hash_ = 0;
};

// Immediate post-dominators of a CFG given as successor lists, with a virtual
// exit (id = succ.size()) after every block without successors; iterative
// dataflow on the reverse CFG (Cooper, Harvey & Kennedy).  A block that
// cannot reach the exit (an endless loop) gets the exit.
std::vector<std::int32_t> immediate_post_dominators(
    const std::vector<std::vector<std::int32_t>>& succ);

// Where each thread goes after a block.  A choice is a pure function of
// (run key, thread, block, the thread's step count or loop visit), so every
// machine that walks the threads sees the same paths.  The walker keeps the
// per-thread state those keys need: steps taken and the current visit of
// each LOOP block (reset when the thread leaves the loop).
class Walker {
 public:
  Walker(const CfgKernel& kernel, std::uint64_t key);
  // The block `thread` executes after `block` (exit_id() when it leaves),
  // advancing its state.
  std::int32_t next(std::int64_t thread, std::int32_t block);
  // Blocks each thread has executed so far (its path length).
  std::int64_t steps(std::int64_t thread) const { return steps_[static_cast<std::size_t>(thread)]; }
  // A 52-bit digest of the blocks the thread executed, in order (exact as a double).
  std::uint64_t path_hash(std::int64_t thread) const {
    return hashes_[static_cast<std::size_t>(thread)] >> 12;
  }
  // Per-thread path lengths and digests, as result series (RunOutput::values).
  std::vector<Series> path_series() const;

 private:
  const CfgKernel& kernel_;
  Philox rng_;
  std::vector<std::int32_t> steps_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::int32_t> loop_index_;   // per block: its slot among LOOP blocks, or -1
  std::vector<std::int32_t> loop_visits_;  // threads x LOOP blocks
  std::int32_t loops_ = 0;
};

}  // namespace tbdse::vgiw
