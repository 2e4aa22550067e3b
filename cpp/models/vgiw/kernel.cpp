#include "models/vgiw/kernel.hpp"

#include <algorithm>
#include <set>

#include "core/errors.hpp"
#include "core/hash.hpp"
#include "core/run_control.hpp"
#include "models/vgiw/run_size.hpp"

namespace tbdse::vgiw {

namespace {

// Threads and per-thread walker state (12 B + 4 B per loop block) stay within
// a few GB: 2^26 threads x (3 + loops) words at most 2^28 words.
constexpr std::int64_t kMaxThreads = std::int64_t{1} << 26;
constexpr std::int64_t kMaxThreadWords = std::int64_t{1} << 28;
constexpr std::int32_t kMaxBlocks = 4096;

std::string block_label(const std::vector<BasicBlock>& blocks, std::size_t b) {
  std::string s = "block " + std::to_string(b);
  if (b < blocks.size() && !blocks[b].name.empty()) s += " ('" + blocks[b].name + "')";
  return s;
}

void check_block(const std::vector<BasicBlock>& blocks, std::size_t b) {
  const BasicBlock& blk = blocks[b];
  const std::string where = block_label(blocks, b);
  const auto n = static_cast<std::int64_t>(blocks.size());
  if (blk.succ.size() > 2)
    throw ConfigError(where + ": key 'succ' has " + std::to_string(blk.succ.size()) +
                      " successors; a basic block has at most two (VGIW §3.1)");
  for (const std::int32_t s : blk.succ) {
    if (s < 0 || s >= n)
      throw ConfigError(where + ": key 'succ' names block " + std::to_string(s) +
                        "; valid ids are 0.." + std::to_string(n - 1));
  }
  if (blk.succ.size() == 2 && blk.succ[0] == blk.succ[1])
    throw ConfigError(where + ": key 'succ' lists block " + std::to_string(blk.succ[0]) + " twice");
  for (const auto& [key, v] : {std::pair{"alu", blk.alu}, {"special", blk.special}, {"ldst", blk.ldst}})
    if (v < 0 || v > 100000) throw ConfigError(where + ": key '" + key + "' must be in 0..100000");
  for (const auto& [key, v] : {std::pair{"lv_loads", blk.lv_loads}, {"lv_stores", blk.lv_stores},
                               {"split_join", blk.split_join}})
    if (v < -1 || v > 100000)
      throw ConfigError(where + ": key '" + key + "' must be -1 (derived) or in 0..100000");
  if (!(blk.mem_intensity >= 0.0 && blk.mem_intensity <= 1.0))
    throw ConfigError(where + ": key 'mem_intensity' must be in [0, 1]");
  const bool two = blk.succ.size() == 2;
  switch (blk.branch) {
    case BranchKind::NONE:
      if (two)
        throw ConfigError(where + ": two successors need key 'branch': probability, predicate, "
                                  "loop or paths");
      break;
    case BranchKind::PROBABILITY:
    case BranchKind::PREDICATE:
      if (!two) throw ConfigError(where + ": branch model needs two successors in 'succ'");
      if (!(blk.p >= 0.0 && blk.p <= 1.0)) throw ConfigError(where + ": key 'p' must be in [0, 1]");
      if (blk.branch == BranchKind::PREDICATE && (blk.succ[0] <= static_cast<std::int32_t>(b) ||
                                                  blk.succ[1] <= static_cast<std::int32_t>(b)))
        throw ConfigError(where + ": a 'predicate' branch repeats its choice at every visit, so "
                                  "it cannot be a back edge; use 'probability' or 'loop'");
      break;
    case BranchKind::LOOP:
      if (!two || blk.succ[0] > static_cast<std::int32_t>(b))
        throw ConfigError(where + ": branch 'loop' needs two successors, the first a back edge "
                                  "(an id <= " + std::to_string(b) + ")");
      if (blk.trips_min < 1 || blk.trips_max < blk.trips_min || blk.trips_max > 1000000)
        throw ConfigError(where + ": keys 'trips_min'/'trips_max' need 1 <= trips_min <= "
                                  "trips_max <= 1000000");
      break;
    case BranchKind::PATHS:
      if (!two) throw ConfigError(where + ": branch 'paths' needs two successors in 'succ'");
      break;
  }
  // Reverse post-order: a forward edge goes to a larger id (§3.1), so the
  // scheduler's smallest-id rule runs a block after its forward predecessors.
  // An unconditional back edge is a top-tested loop's latch: the header's
  // branch leaves the loop (the kernel checks that every block can reach an
  // exit).
  if (two && blk.branch != BranchKind::LOOP && blk.branch != BranchKind::PROBABILITY &&
      blk.branch != BranchKind::PATHS && (blk.succ[0] <= static_cast<std::int32_t>(b) ||
                                          blk.succ[1] <= static_cast<std::int32_t>(b)))
    throw ConfigError(where + ": a back edge needs branch 'loop', 'probability' or 'paths'");
}

// Edges a thread can take: a 'probability' or 'predicate' branch with chance 0
// or 1 never takes one of its two.
std::vector<std::int32_t> takeable(const BasicBlock& blk) {
  const bool chance = blk.branch == BranchKind::PROBABILITY || blk.branch == BranchKind::PREDICATE;
  if (chance && blk.succ.size() == 2) {
    if (blk.p >= 1.0) return {blk.succ[0]};
    if (blk.p <= 0.0) return {blk.succ[1]};
  }
  return blk.succ;
}

// Every block must reach an exit block (no successors) along edges a thread can
// take; otherwise threads entering it would never finish (a loop whose only
// way out has chance 0, or none at all).
void check_exits(const std::string& kernel, const std::vector<BasicBlock>& blocks) {
  const auto n = static_cast<std::int32_t>(blocks.size());
  std::vector<std::vector<std::int32_t>> preds(n);
  std::vector<std::int32_t> todo;
  std::vector<char> done(n, 0);
  for (std::int32_t b = 0; b < n; ++b) {
    if (blocks[b].succ.empty()) done[b] = 1, todo.push_back(b);
    for (const auto s : takeable(blocks[b])) preds[s].push_back(b);
  }
  while (!todo.empty()) {
    const std::int32_t b = todo.back();
    todo.pop_back();
    for (const auto p : preds[b])
      if (!done[p]) done[p] = 1, todo.push_back(p);
  }
  for (std::int32_t b = 0; b < n; ++b)
    if (!done[b])
      throw ConfigError("kernel '" + kernel + "': " + block_label(blocks, b) +
                        " cannot reach an exit block (one without successors) along edges a "
                        "thread can take: its threads would never finish (a loop needs a way "
                        "out with a chance above 0)");
}

}  // namespace

const char* unit_type_name(int type) {
  static const char* names[] = {"alu", "special", "ldst", "lvu", "split_join", "cvu"};
  return names[type];
}

std::vector<std::int32_t> immediate_post_dominators(
    const std::vector<std::vector<std::int32_t>>& succ) {
  const auto n = static_cast<std::int32_t>(succ.size());
  const std::int32_t exit = n;
  // Reverse CFG: preds of the reversed graph are the successors; number the
  // nodes by a post-order of the reverse CFG from the virtual exit.
  std::vector<std::vector<std::int32_t>> rsucc(n + 1);  // reverse edges: to -> from
  for (std::int32_t b = 0; b < n; ++b) {
    if (succ[b].empty()) rsucc[exit].push_back(b);
    for (const auto s : succ[b]) rsucc[s].push_back(b);
  }
  std::vector<std::int32_t> order, rank(n + 1, -1);
  std::vector<std::pair<std::int32_t, std::size_t>> stack{{exit, 0}};
  std::vector<char> seen(n + 1, 0);
  seen[exit] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < rsucc[v].size()) {
      const std::int32_t w = rsucc[v][i++];
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back({w, 0});
      }
    } else {
      rank[v] = static_cast<std::int32_t>(order.size());
      order.push_back(v);
      stack.pop_back();
    }
  }
  std::vector<std::int32_t> idom(n + 1, -1);
  idom[exit] = exit;
  const auto intersect = [&](std::int32_t a, std::int32_t b) {
    while (a != b) {
      while (rank[a] < rank[b]) a = idom[a];
      while (rank[b] < rank[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const std::int32_t v = *it;
      if (v == exit) continue;
      std::int32_t best = -1;  // over the reverse-CFG predecessors: v's successors (or exit)
      const auto consider = [&](std::int32_t p) {
        if (idom[p] < 0) return;
        best = best < 0 ? p : intersect(p, best);
      };
      if (succ[v].empty()) consider(exit);
      for (const auto s : succ[v]) consider(s);
      if (best >= 0 && idom[v] != best) {
        idom[v] = best;
        changed = true;
      }
    }
  }
  idom.pop_back();
  for (auto& d : idom)
    if (d < 0) d = exit;  // cannot reach the exit
  return idom;
}

CfgKernel::CfgKernel(std::string name, std::vector<BasicBlock> blocks, std::int64_t threads,
                     std::vector<std::vector<std::int32_t>> paths, std::int64_t block_threads)
    : name_(std::move(name)),
      blocks_(std::move(blocks)),
      threads_(threads),
      block_threads_(block_threads),
      paths_(std::move(paths)) {
  if (block_threads_ < 0 || block_threads_ > 1024)
    throw ConfigError("kernel '" + name_ + "': key 'block_threads' must be in 0..1024 (0: the simt "
                      "scheme's block_threads), got " + std::to_string(block_threads_));
  const auto n = static_cast<std::int32_t>(blocks_.size());
  if (n < 1 || n > kMaxBlocks)
    throw ConfigError("kernel '" + name_ + "': needs 1.." + std::to_string(kMaxBlocks) +
                      " basic blocks, got " + std::to_string(n));
  if (threads_ < 1 || threads_ > kMaxThreads)
    throw ConfigError("kernel '" + name_ + "': key 'threads' must be in 1.." +
                      std::to_string(kMaxThreads));
  for (std::size_t b = 0; b < blocks_.size(); ++b) check_block(blocks_, b);
  // Every block reachable from the entry (block 0, §3.1).
  std::vector<char> reach(n, 0);
  std::vector<std::int32_t> todo{0};
  reach[0] = 1;
  while (!todo.empty()) {
    const std::int32_t b = todo.back();
    todo.pop_back();
    for (const auto s : blocks_[b].succ)
      if (!reach[s]) reach[s] = 1, todo.push_back(s);
  }
  for (std::int32_t b = 0; b < n; ++b)
    if (!reach[b])
      throw ConfigError("kernel '" + name_ + "': " + block_label(blocks_, b) +
                        " is unreachable from the entry block 0");
  check_exits(name_, blocks_);
  const auto loops = std::count_if(blocks_.begin(), blocks_.end(), [](const BasicBlock& blk) {
    return blk.branch == BranchKind::LOOP;
  });
  double steps = 4.0 * n;
  for (const auto& blk : blocks_)
    if (blk.branch == BranchKind::LOOP) steps *= static_cast<double>(blk.trips_max);
  max_steps_ = static_cast<std::int32_t>(std::clamp(steps, 1048576.0, 1073741824.0));
  if (threads_ * (3 + loops) > kMaxThreadWords)
    throw ConfigError("kernel '" + name_ + "': " + std::to_string(threads_) + " threads x (3 + " +
                      std::to_string(loops) + " loop blocks) words of per-thread state exceed " +
                      std::to_string(kMaxThreadWords) + "; use fewer threads");
  const bool has_paths = !paths_.empty();
  for (std::int32_t b = 0; b < n; ++b) {
    const bool wants = blocks_[b].branch == BranchKind::PATHS;
    if (wants && !has_paths)
      throw ConfigError("kernel '" + name_ + "': " + block_label(blocks_, b) +
                        " has branch 'paths' but the kernel gives no 'paths'");
  }
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    const auto& p = paths_[i];
    const std::string where = "kernel '" + name_ + "': path " + std::to_string(i);
    if (p.empty() || p[0] != 0) throw ConfigError(where + " must start at the entry block 0");
    for (std::size_t k = 0; k < p.size(); ++k) {
      if (p[k] < 0 || p[k] >= n) throw ConfigError(where + " names block " + std::to_string(p[k]));
      const auto& s = blocks_[p[k]].succ;
      if (k + 1 < p.size()) {
        if (std::find(s.begin(), s.end(), p[k + 1]) == s.end())
          throw ConfigError(where + ": block " + std::to_string(p[k + 1]) + " is not a successor of " +
                            block_label(blocks_, p[k]));
        if (s.size() == 2 && blocks_[p[k]].branch != BranchKind::PATHS)
          throw ConfigError(where + " passes " + block_label(blocks_, p[k]) +
                            ", whose branch must then be 'paths'");
      } else if (!s.empty()) {
        throw ConfigError(where + " ends at " + block_label(blocks_, p[k]) +
                          ", which is not an exit block (it has successors)");
      }
    }
  }
  std::vector<std::vector<std::int32_t>> succ(n);
  for (std::int32_t b = 0; b < n; ++b) succ[b] = blocks_[b].succ;
  ipdom_ = immediate_post_dominators(succ);
  visits_ = std::make_shared<const ExpectedVisits>(vgiw::expected_visits(blocks_, paths_));
  // Live values (§2, §3.1): a value a block uses but does not define is loaded
  // from the LVC; a value it defines that another block uses is stored.
  std::map<std::string, std::set<std::int32_t>> users;
  for (std::int32_t b = 0; b < n; ++b)
    for (const auto& u : blocks_[b].uses) users[u].insert(b);
  lv_loads_.assign(n, 0);
  lv_stores_.assign(n, 0);
  units_.resize(n);
  for (std::int32_t b = 0; b < n; ++b) {
    const BasicBlock& blk = blocks_[b];
    const std::set<std::string> defs(blk.defs.begin(), blk.defs.end());
    const std::set<std::string> uses(blk.uses.begin(), blk.uses.end());
    std::int64_t loads = 0, stores = 0;
    for (const auto& u : uses) loads += defs.count(u) ? 0 : 1;
    for (const auto& d : defs) {
      const auto it = users.find(d);
      if (it != users.end() && (it->second.size() > 1 || !it->second.count(b))) ++stores;
    }
    lv_loads_[b] = blk.lv_loads >= 0 ? blk.lv_loads : loads;
    lv_stores_[b] = blk.lv_stores >= 0 ? blk.lv_stores : stores;
    const std::int64_t sju = blk.split_join >= 0 ? blk.split_join : (blk.ldst + 1) / 2;
    units_[b] = {blk.alu, blk.special, blk.ldst, lv_loads_[b] + lv_stores_[b], sju, 1};
  }
  Hasher h;
  h.add_string(name_).add_signed(threads_);
  if (block_threads_ > 0) h.add_signed(block_threads_);  // kernels without one keep their hash
  for (const auto& blk : blocks_) {
    h.add_signed(blk.alu).add_signed(blk.special).add_signed(blk.ldst).add_signed(blk.lv_loads);
    h.add_signed(blk.lv_stores).add_signed(blk.split_join).add_double(blk.mem_intensity);
    h.add(static_cast<std::uint64_t>(blk.pattern));
    h.add(static_cast<std::uint64_t>(blk.branch)).add_double(blk.p);
    h.add_signed(blk.trips_min).add_signed(blk.trips_max);
    h.add_span(std::span<const std::int32_t>(blk.succ));
    h.add(blk.defs.size());
    for (const auto& d : blk.defs) h.add_string(d);
    h.add(blk.uses.size());
    for (const auto& u : blk.uses) h.add_string(u);
  }
  h.add(paths_.size());
  for (const auto& p : paths_) h.add_span(std::span<const std::int32_t>(p));
  hash_ = h.digest();
}

double CfgKernel::weight() const {
  return static_cast<double>(threads_) * static_cast<double>(blocks_.size()) / 64.0;
}

std::map<std::string, double> CfgKernel::sizes() const {
  return {{"threads", static_cast<double>(threads_)}, {"blocks", static_cast<double>(blocks_.size())}};
}

Walker::Walker(const CfgKernel& kernel, std::uint64_t key)
    : kernel_(kernel),
      rng_(key),
      steps_(static_cast<std::size_t>(kernel.threads()), 0),
      hashes_(static_cast<std::size_t>(kernel.threads()), 0) {
  loop_index_.assign(kernel.blocks().size(), -1);
  for (std::size_t b = 0; b < kernel.blocks().size(); ++b)
    if (kernel.blocks()[b].branch == BranchKind::LOOP) loop_index_[b] = loops_++;
  loop_visits_.assign(static_cast<std::size_t>(kernel.threads() * loops_), 0);
}

std::int32_t Walker::next(std::int64_t thread, std::int32_t block) {
  const BasicBlock& blk = kernel_.blocks()[static_cast<std::size_t>(block)];
  const auto t = static_cast<std::size_t>(thread);
  const std::int32_t step = steps_[t]++;
  poll_run();  // every machine walks its threads' paths here: Ctrl-C, the time limit
  if (step >= kernel_.max_steps())  // a 'predicate' choice inside a loop can send a thread round forever
    throw ConfigError("kernel '" + kernel_.name() + "': thread " + std::to_string(thread) +
                      " passed " + std::to_string(kernel_.max_steps()) + " blocks (last " +
                      block_label(kernel_.blocks(), static_cast<std::size_t>(block)) +
                      "): an endless loop; give the loop a 'loop' or 'probability' branch that "
                      "every thread can leave by");
  hashes_[t] = mix64(hashes_[t] ^ (static_cast<std::uint64_t>(block) + 1));
  const auto stream = static_cast<std::uint64_t>(block);
  switch (blk.branch) {
    case BranchKind::NONE:
      return blk.succ.empty() ? kernel_.exit_id() : blk.succ[0];
    case BranchKind::PROBABILITY: {
      // One draw per (thread, step): every visit decides afresh.
      const std::uint64_t index = (static_cast<std::uint64_t>(thread) << 32) | static_cast<std::uint32_t>(step);
      return rng_.uniform(index, stream) < blk.p ? blk.succ[0] : blk.succ[1];
    }
    case BranchKind::PREDICATE:
      return rng_.uniform(static_cast<std::uint64_t>(thread), stream | (1ULL << 40)) < blk.p
                 ? blk.succ[0] : blk.succ[1];
    case BranchKind::LOOP: {
      const std::int64_t span = blk.trips_max - blk.trips_min + 1;
      const double u = rng_.uniform(static_cast<std::uint64_t>(thread), stream | (2ULL << 40));
      const std::int64_t trips = blk.trips_min + std::min<std::int64_t>(span - 1, static_cast<std::int64_t>(u * static_cast<double>(span)));
      auto& visits = loop_visits_[t * static_cast<std::size_t>(loops_) + static_cast<std::size_t>(loop_index_[block])];
      if (++visits < trips) return blk.succ[0];
      visits = 0;  // leaving the loop: a later entry counts afresh
      return blk.succ[1];
    }
    case BranchKind::PATHS: {
      const auto& p = kernel_.paths()[t % kernel_.paths().size()];
      return p[static_cast<std::size_t>(step) + 1];
    }
  }
  return kernel_.exit_id();
}

std::vector<Series> Walker::path_series() const {
  Series length{"path_length", {}}, digest{"path_hash", {}};
  length.values.reserve(steps_.size());
  digest.values.reserve(steps_.size());
  for (std::size_t t = 0; t < steps_.size(); ++t) {
    length.values.push_back(steps_[t]);
    digest.values.push_back(static_cast<double>(hashes_[t] >> 12));
  }
  return {std::move(length), std::move(digest)};
}

}  // namespace tbdse::vgiw
