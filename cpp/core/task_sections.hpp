// Task dependencies from OpenMP-style depend clauses (docs/MODELS.md §5,
// docs/models/juggler.md "Workloads").  Tasks are declared in program order,
// each with the array sections it reads (`in`), writes (`out`) or both
// (`inout`); a later task depends on an earlier one when they touch the same
// data and at least one writes it:
//   RAW  a read after the last write of the data,
//   WAW  a write after the last write,
//   WAR  a write after the reads since the last write.
// "The same data" is a section equal to (array, lo, hi) for `exact` matching
// (Juggler's inspector, §4.4: "only one-to-one matching data ranges"), or any
// element in common for `overlap` matching (what the OpenMP standard asks).
// The result is a deduplicated edge list that TaskGraph::build takes as is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "types.hpp"

namespace tbdse {

enum class SectionMode : std::uint8_t { IN, OUT, INOUT };
enum class SectionMatch : std::uint8_t { EXACT, OVERLAP };

// Bits of TaskDependencies::hazards: why an edge exists (one or more).
inline constexpr std::uint8_t kHazardRaw = 1;
inline constexpr std::uint8_t kHazardWar = 2;
inline constexpr std::uint8_t kHazardWaw = 4;

// Elements [lo, hi) of one array, as a depend clause names them.
struct Section {
  std::int32_t array = 0;  // index into TaskList::array_sizes
  std::int64_t lo = 0;     // first element, >= 0
  std::int64_t hi = 0;     // one past the last element, lo <= hi <= the array's size;
                           // an empty section (lo == hi) touches nothing
  SectionMode mode = SectionMode::IN;
};

// Tasks in program order, their sections in CSR form.
struct TaskList {
  std::vector<std::string> array_names;     // for messages, by array id
  std::vector<std::int64_t> array_sizes;    // elements per array (>= 0)
  std::vector<std::string> kind_names;      // a task's kind (kernel), by kind id
  std::vector<std::int32_t> kind;           // per task: its kind id
  std::vector<std::int32_t> launch;         // per task: its launch group (>= 0), or empty to
                                            // derive them (see build_task_dependencies)
  std::vector<std::int64_t> section_start;  // tasks + 1 offsets into `sections`
  std::vector<Section> sections;

  std::int32_t tasks() const { return static_cast<std::int32_t>(kind.size()); }
  // ConfigError naming the task (index and kind) and section when: a kind or
  // array id is out of range; a section has lo < 0, lo > hi or hi past the
  // array's end; the offsets or per-task arrays do not fit together; a launch
  // group is negative.  An empty list is valid.
  void validate() const;
  // "a[3:5]" for messages.
  std::string describe(const Section& s) const;
};

struct TaskDependencies {
  // Edges parent -> child, parent < child, unique, sorted by (child, parent).
  std::vector<TaskId> parent, child;
  std::vector<std::uint8_t> hazards;       // per edge: kHazardRaw | kHazardWar | kHazardWaw
  std::vector<std::int32_t> launch_group;  // per task
};

// Validates the list, then matches its sections.  Cost: exact matching is a
// hash map keyed by section, O(sections + edges); overlap matching keeps per
// array an interval map that a write collapses and a read splits at its
// bounds, O((sections + edges) log segments) for blocked codes whose sections
// line up.  A split copies the segment's readers since the last write, so
// many whole-array reads followed by many element reads cost readers x
// splits (quadratic, without an edge) until the next write collapses them.
// Launch groups (for the global-barrier baseline): `list.launch` when given,
// and then every edge must go to a later group (ConfigError naming the first
// that does not); otherwise a new group starts whenever the kind changes in
// program order or a task depends on a task of the current group (a kernel
// launch cannot wait on itself).
TaskDependencies build_task_dependencies(const TaskList& list, SectionMatch match);

// "exact" / "overlap" and "in" / "out" / "inout"; ConfigError listing the valid names.
SectionMatch section_match(const std::string& name);
SectionMode section_mode(const std::string& name);

}  // namespace tbdse
