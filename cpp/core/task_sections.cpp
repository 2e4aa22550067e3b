#include "task_sections.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <unordered_map>

#include "errors.hpp"
#include "hash.hpp"

namespace tbdse {

namespace {

// What the tasks so far did to one piece of data.
struct DataState {
  TaskId writer = -1;            // the last task that wrote it, -1 for none
  std::vector<TaskId> readers;   // tasks that read it since, in program order
};

// The parents of the task being added, with why; merged per parent at the end.
class ParentList {
 public:
  void add(TaskId parent, std::uint8_t why) { found_.emplace_back(parent, why); }

  void flush(TaskId child, TaskDependencies& out) {
    std::sort(found_.begin(), found_.end());
    for (std::size_t i = 0; i < found_.size();) {
      const TaskId parent = found_[i].first;
      std::uint8_t why = 0;
      for (; i < found_.size() && found_[i].first == parent; ++i) why |= found_[i].second;
      out.parent.push_back(parent);
      out.child.push_back(child);
      out.hazards.push_back(why);
    }
    found_.clear();
  }

 private:
  std::vector<std::pair<TaskId, std::uint8_t>> found_;
};

bool reads(SectionMode m) { return m != SectionMode::OUT; }
bool writes(SectionMode m) { return m != SectionMode::IN; }

// Edges into `t` from one piece of data, before `t` changes its state.
void collect(const DataState& s, bool read, bool write, ParentList& parents) {
  if (s.writer >= 0) {
    if (read) parents.add(s.writer, kHazardRaw);
    if (write) parents.add(s.writer, kHazardWaw);
  }
  if (write)
    for (const TaskId r : s.readers) parents.add(r, kHazardWar);
}

void note_read(DataState& s, TaskId t) {
  if (s.readers.empty() || s.readers.back() != t) s.readers.push_back(t);
}

// Exact matching: one state per distinct (array, lo, hi).
struct SectionKey {
  std::int32_t array;
  std::int64_t lo, hi;
  bool operator==(const SectionKey&) const = default;
};
struct SectionKeyHash {
  std::size_t operator()(const SectionKey& k) const {
    const auto lo = static_cast<std::uint64_t>(k.lo), hi = static_cast<std::uint64_t>(k.hi);
    return static_cast<std::size_t>(mix64(mix64(lo ^ (static_cast<std::uint64_t>(k.array) << 48)) ^ hi));
  }
};

class ExactMatcher {
 public:
  void collect(const Section& s, ParentList& parents) const {
    const auto it = states_.find({s.array, s.lo, s.hi});
    if (it != states_.end()) tbdse::collect(it->second, reads(s.mode), writes(s.mode), parents);
  }
  void read(const Section& s, TaskId t) { note_read(states_[{s.array, s.lo, s.hi}], t); }
  void write(const Section& s, TaskId t) {
    DataState& state = states_[{s.array, s.lo, s.hi}];
    state.writer = t;
    state.readers.clear();
  }

 private:
  std::unordered_map<SectionKey, DataState, SectionKeyHash> states_;
};

// Overlap matching: per array, segments [start, next start) with one state
// each, covering [0, size).  Reads split segments at their bounds; a write
// replaces the segments it covers with one, so the map stays as fine as the
// sections that are live, not as the array.
class OverlapMatcher {
 public:
  explicit OverlapMatcher(const std::vector<std::int64_t>& sizes) : segments_(sizes.size()) {
    for (auto& m : segments_) m.emplace(0, DataState{});
  }

  void collect(const Section& s, ParentList& parents) const {
    const auto& m = segments_[s.array];
    for (auto it = std::prev(m.upper_bound(s.lo)); it != m.end() && it->first < s.hi; ++it)
      tbdse::collect(it->second, reads(s.mode), writes(s.mode), parents);
  }
  void read(const Section& s, TaskId t) {
    auto& m = segments_[s.array];
    const auto first = split(m, s.lo);
    split(m, s.hi);
    for (auto it = first; it != m.end() && it->first < s.hi; ++it) note_read(it->second, t);
  }
  void write(const Section& s, TaskId t) {
    auto& m = segments_[s.array];
    const auto first = split(m, s.lo);
    const auto last = split(m, s.hi);
    first->second.writer = t;
    first->second.readers.clear();
    m.erase(std::next(first), last);
  }

 private:
  using Segments = std::map<std::int64_t, DataState>;
  // The segment starting at x, made by splitting the one around it if need
  // be (x = the array's size makes an end marker that no section reaches).
  static Segments::iterator split(Segments& m, std::int64_t x) {
    auto it = m.lower_bound(x);
    if (it != m.end() && it->first == x) return it;
    const auto around = std::prev(it);
    return m.emplace_hint(it, x, around->second);
  }

  std::vector<Segments> segments_;
};

template <class Matcher>
void match_all(const TaskList& list, Matcher& matcher, TaskDependencies& out) {
  ParentList parents;
  for (TaskId t = 0; t < list.tasks(); ++t) {
    const auto begin = list.sections.begin() + list.section_start[t];
    const auto end = list.sections.begin() + list.section_start[t + 1];
    // First every edge from the state before t, then t's own effect: its
    // reads, then its writes (a task that reads and writes data is its last
    // writer and none of its readers).
    for (auto s = begin; s != end; ++s)
      if (s->lo < s->hi) matcher.collect(*s, parents);
    for (auto s = begin; s != end; ++s)
      if (s->lo < s->hi && reads(s->mode)) matcher.read(*s, t);
    for (auto s = begin; s != end; ++s)
      if (s->lo < s->hi && writes(s->mode)) matcher.write(*s, t);
    parents.flush(t, out);
  }
}

std::string task_name(const TaskList& list, TaskId t) {
  return "task " + std::to_string(t) + " ('" + list.kind_names[list.kind[t]] + "')";
}

std::string hazard_names(std::uint8_t why) {
  std::string out;
  for (const auto& [bit, name] : {std::pair{kHazardRaw, "RAW"}, {kHazardWar, "WAR"}, {kHazardWaw, "WAW"}})
    if (why & bit) out += (out.empty() ? "" : "+") + std::string(name);
  return out;
}

void assign_launch_groups(const TaskList& list, TaskDependencies& deps) {
  const std::int32_t n = list.tasks();
  if (!list.launch.empty()) {
    deps.launch_group = list.launch;
    for (std::size_t e = 0; e < deps.parent.size(); ++e) {
      const TaskId p = deps.parent[e], c = deps.child[e];
      if (list.launch[p] >= list.launch[c])
        throw ConfigError(task_name(list, c) + " in launch group " + std::to_string(list.launch[c]) +
                          " depends on " + task_name(list, p) + " in launch group " +
                          std::to_string(list.launch[p]) + " (" + hazard_names(deps.hazards[e]) +
                          "); every dependency must point to a later launch group, as a kernel "
                          "launch cannot wait on itself");
    }
    return;
  }
  deps.launch_group.assign(static_cast<std::size_t>(n), 0);
  std::int32_t group = -1;
  TaskId group_start = 0;
  std::size_t e = 0;  // edges are sorted by child
  for (TaskId t = 0; t < n; ++t) {
    bool inside = false;  // a parent in the current group
    for (; e < deps.child.size() && deps.child[e] == t; ++e) inside |= deps.parent[e] >= group_start;
    if (t == 0 || list.kind[t] != list.kind[t - 1] || inside) {
      ++group;
      group_start = t;
    }
    deps.launch_group[t] = group;
  }
}

}  // namespace

std::string TaskList::describe(const Section& s) const {
  const bool named = s.array >= 0 && static_cast<std::size_t>(s.array) < array_names.size();
  return (named ? array_names[s.array] : "array #" + std::to_string(s.array)) + "[" +
         std::to_string(s.lo) + ":" + std::to_string(s.hi) + "]";
}

void TaskList::validate() const {
  const std::size_t n = kind.size();
  if (n > static_cast<std::size_t>(std::numeric_limits<TaskId>::max()))
    throw ConfigError("task list: " + std::to_string(n) + " tasks; at most 2^31 - 1 are supported");
  if (array_names.size() != array_sizes.size())
    throw ConfigError("task list: " + std::to_string(array_names.size()) + " array names but " +
                      std::to_string(array_sizes.size()) + " array sizes");
  for (std::size_t a = 0; a < array_sizes.size(); ++a)
    if (array_sizes[a] < 0)
      throw ConfigError("task list: array '" + array_names[a] + "' has a negative size (" +
                        std::to_string(array_sizes[a]) + ")");
  if (section_start.size() != n + 1 || section_start.front() != 0 ||
      section_start.back() != static_cast<std::int64_t>(sections.size()))
    throw ConfigError("task list: section offsets must be tasks + 1 = " + std::to_string(n + 1) +
                      " values from 0 to the number of sections (" +
                      std::to_string(sections.size()) + ")");
  if (!launch.empty() && launch.size() != n)
    throw ConfigError("task list: " + std::to_string(launch.size()) +
                      " launch groups for " + std::to_string(n) + " tasks (give one per task or none)");
  const auto kinds = static_cast<std::int32_t>(kind_names.size());
  const auto arrays = static_cast<std::int32_t>(array_sizes.size());
  for (TaskId t = 0; t < static_cast<TaskId>(n); ++t) {
    if (kind[t] < 0 || kind[t] >= kinds)
      throw ConfigError("task " + std::to_string(t) + ": kind id " + std::to_string(kind[t]) +
                        " is not one of the " + std::to_string(kinds) + " kinds");
    if (!launch.empty() && launch[t] < 0)
      throw ConfigError(task_name(*this, t) + ": launch group " + std::to_string(launch[t]) +
                        " must be >= 0");
    if (section_start[t + 1] < section_start[t] ||
        section_start[t + 1] > static_cast<std::int64_t>(sections.size()))
      throw ConfigError(task_name(*this, t) + ": section offsets must not decrease or pass the "
                        "number of sections");
    for (std::int64_t i = section_start[t]; i < section_start[t + 1]; ++i) {
      const Section& s = sections[i];
      const std::string where = task_name(*this, t) + ", section " +
                                std::to_string(i - section_start[t]) + " (" + describe(s) + ")";
      if (s.array < 0 || s.array >= arrays)
        throw ConfigError(where + ": unknown array id " + std::to_string(s.array) + "; the task list has " +
                          std::to_string(arrays) + " array(s)");
      if (s.lo < 0) throw ConfigError(where + ": lo must be >= 0");
      if (s.lo > s.hi) throw ConfigError(where + ": lo > hi; a section is lo:hi with hi exclusive");
      if (s.hi > array_sizes[s.array])
        throw ConfigError(where + ": ends past the array's " + std::to_string(array_sizes[s.array]) +
                          " elements");
      if (static_cast<std::uint8_t>(s.mode) > static_cast<std::uint8_t>(SectionMode::INOUT))
        throw ConfigError(where + ": mode must be in, out or inout");
    }
  }
}

TaskDependencies build_task_dependencies(const TaskList& list, SectionMatch match) {
  list.validate();
  TaskDependencies deps;
  if (match == SectionMatch::EXACT) {
    ExactMatcher m;
    match_all(list, m, deps);
  } else {
    OverlapMatcher m(list.array_sizes);
    match_all(list, m, deps);
  }
  assign_launch_groups(list, deps);
  return deps;
}

SectionMatch section_match(const std::string& name) {
  if (name == "exact") return SectionMatch::EXACT;
  if (name == "overlap") return SectionMatch::OVERLAP;
  throw_unknown_name("section match", name, {"exact", "overlap"});
}

SectionMode section_mode(const std::string& name) {
  if (name == "in") return SectionMode::IN;
  if (name == "out") return SectionMode::OUT;
  if (name == "inout") return SectionMode::INOUT;
  throw_unknown_name("depend mode", name, {"in", "out", "inout"});
}

}  // namespace tbdse
