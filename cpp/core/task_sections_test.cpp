#include "core/task_sections.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <tuple>

#include "core/errors.hpp"
#include "core/test_support.hpp"

using namespace tbdse;
using tbdse::test_support::message_of;

namespace {

constexpr auto IN = SectionMode::IN;
constexpr auto OUT = SectionMode::OUT;
constexpr auto INOUT = SectionMode::INOUT;

// Tasks of kind "k" over arrays a (id 0, 100 elements) and b (id 1, 100
// elements); each task a list of sections.
TaskList tasks(const std::vector<std::vector<Section>>& list, std::vector<std::int32_t> kinds = {}) {
  TaskList in;
  in.array_names = {"a", "b"};
  in.array_sizes = {100, 100};
  in.kind_names = {"k", "m"};
  in.section_start.push_back(0);
  for (const auto& t : list) {
    in.sections.insert(in.sections.end(), t.begin(), t.end());
    in.section_start.push_back(static_cast<std::int64_t>(in.sections.size()));
  }
  in.kind = kinds.empty() ? std::vector<std::int32_t>(list.size(), 0) : kinds;
  return in;
}

Section sec(std::int32_t array, std::int64_t lo, std::int64_t hi, SectionMode mode) {
  return {array, lo, hi, mode};
}

using Edge = std::tuple<TaskId, TaskId, std::uint8_t>;  // parent, child, hazards

std::vector<Edge> edges(const TaskList& list, SectionMatch match = SectionMatch::EXACT) {
  const auto d = build_task_dependencies(list, match);
  std::vector<Edge> out;
  for (std::size_t e = 0; e < d.parent.size(); ++e) out.emplace_back(d.parent[e], d.child[e], d.hazards[e]);
  return out;
}

constexpr std::uint8_t RAW = kHazardRaw, WAR = kHazardWar, WAW = kHazardWaw;

}  // namespace

TEST_CASE("task sections: RAW from the last writer only") {
  // 0 writes a[0:10], 1 writes it again, 2 reads it: 2 depends on 1 (the last
  // writer), not on 0; 0 -> 1 is the write-after-write.
  const auto e = edges(tasks({{sec(0, 0, 10, OUT)}, {sec(0, 0, 10, OUT)}, {sec(0, 0, 10, IN)}}));
  CHECK(e == std::vector<Edge>{{0, 1, WAW}, {1, 2, RAW}});
}

TEST_CASE("task sections: WAR from every reader since the last write, and WAW") {
  // 0 writes, 1 and 2 read, 3 writes: 3 waits for both readers (WAR) and the
  // last writer (WAW); 4 reads and depends on 3 alone, the readers 1 and 2
  // being cleared by 3's write.
  const auto e = edges(tasks({{sec(0, 0, 10, OUT)},
                              {sec(0, 0, 10, IN)},
                              {sec(0, 0, 10, IN)},
                              {sec(0, 0, 10, OUT)},
                              {sec(0, 0, 10, IN)}}));
  CHECK(e == std::vector<Edge>{{0, 1, RAW}, {0, 2, RAW}, {0, 3, WAW}, {1, 3, WAR}, {2, 3, WAR}, {3, 4, RAW}});
}

TEST_CASE("task sections: reads before any write relate to nothing; reads never order reads") {
  const auto e = edges(tasks({{sec(0, 0, 10, IN)}, {sec(0, 0, 10, IN)}, {sec(1, 0, 5, IN)}}));
  CHECK(e.empty());
}

TEST_CASE("task sections: inout is in + out, and a task reading and writing one section") {
  // 0 inout a[0:10]; 1 inout it: RAW (reads 0's value) and WAW (overwrites it).
  // 2 declares in and out of the same section separately: the same as inout.
  // 3 reads: only from 2, the last writer (2's own read does not make it a reader).
  const auto e = edges(tasks({{sec(0, 0, 10, INOUT)},
                              {sec(0, 0, 10, INOUT)},
                              {sec(0, 0, 10, IN), sec(0, 0, 10, OUT)},
                              {sec(0, 0, 10, OUT)}}));
  CHECK(e == std::vector<Edge>{{0, 1, RAW | WAW}, {1, 2, RAW | WAW}, {2, 3, WAW}});
}

TEST_CASE("task sections: several hazards and sections to one parent give one edge") {
  // 1 reads a[0:10] and b[0:10] that 0 wrote and overwrites a[20:30] that 0
  // read: one edge 0 -> 1 carrying RAW and WAR.
  const auto e = edges(tasks({{sec(0, 0, 10, OUT), sec(1, 0, 10, OUT), sec(0, 20, 30, IN)},
                              {sec(0, 0, 10, IN), sec(1, 0, 10, IN), sec(0, 20, 30, OUT)}}));
  CHECK(e == std::vector<Edge>{{0, 1, RAW | WAR}});
}

TEST_CASE("task sections: exact and overlap differ on partially overlapping sections") {
  // 0 writes a[0:10]; 1 reads a[5:15]; 2 writes a[0:10] again; 3 reads a[0:5].
  const auto list = tasks({{sec(0, 0, 10, OUT)}, {sec(0, 5, 15, IN)}, {sec(0, 0, 10, OUT)}, {sec(0, 0, 5, IN)}});
  // Exact (Juggler): only identical sections relate; a[5:15] and a[0:5] match
  // nothing written, so only the WAW 0 -> 2 remains.
  CHECK(edges(list, SectionMatch::EXACT) == std::vector<Edge>{{0, 2, WAW}});
  // Overlap: 1 reads 0's a[5:10] (RAW), 2 overwrites what 1 read (WAR) and
  // 0's data (WAW), 3 reads a[0:5] from 2 (RAW).
  CHECK(edges(list, SectionMatch::OVERLAP) ==
        std::vector<Edge>{{0, 1, RAW}, {0, 2, WAW}, {1, 2, WAR}, {2, 3, RAW}});
}

TEST_CASE("task sections: overlap splits and merges segments element by element") {
  // 0 writes a[0:50], 1 writes a[20:30], 2 reads a[10:40]: the read spans
  // pieces last written by 0 (10-20, 30-40) and by 1 (20-30), so both are
  // parents.  3 writes a[0:100]: WAW from 0 and 1 (each still last writer of
  // some element), WAR from 2.  4 reads a[45:46]: only 3.
  const auto e = edges(tasks({{sec(0, 0, 50, OUT)},
                              {sec(0, 20, 30, OUT)},
                              {sec(0, 10, 40, IN)},
                              {sec(0, 0, 100, OUT)},
                              {sec(0, 45, 46, IN)}}),
                       SectionMatch::OVERLAP);
  CHECK(e == std::vector<Edge>{{0, 1, WAW}, {0, 2, RAW}, {1, 2, RAW}, {0, 3, WAW}, {1, 3, WAW},
                               {2, 3, WAR}, {3, 4, RAW}});
}

TEST_CASE("task sections: adjacent sections do not overlap; empty sections touch nothing") {
  // a[0:10] and a[10:20] share no element; a[5:5] is empty even in exact mode.
  const auto list = tasks({{sec(0, 0, 10, OUT)}, {sec(0, 10, 20, IN)}, {sec(0, 5, 5, OUT)}, {sec(0, 5, 5, IN)}});
  CHECK(edges(list, SectionMatch::OVERLAP).empty());
  CHECK(edges(list, SectionMatch::EXACT).empty());
}

TEST_CASE("task sections: different arrays never relate") {
  const auto e = edges(tasks({{sec(0, 0, 10, OUT)}, {sec(1, 0, 10, IN)}}), SectionMatch::OVERLAP);
  CHECK(e.empty());
}

TEST_CASE("task sections: launch groups change with the kind and at a dependency") {
  // Kinds k k m m k: groups 0 0 1 1 2 without dependencies inside a run;
  // task 3 (m) reads what task 2 (m) wrote, so a new group starts at 3.
  auto list = tasks({{sec(0, 0, 1, OUT)}, {sec(0, 1, 2, OUT)}, {sec(0, 2, 3, OUT)},
                     {sec(0, 2, 3, IN)}, {sec(0, 9, 10, OUT)}},
                    {0, 0, 1, 1, 0});
  auto d = build_task_dependencies(list, SectionMatch::EXACT);
  CHECK(d.launch_group == std::vector<std::int32_t>{0, 0, 1, 2, 3});
  // Explicit groups are kept, and must put every child after its parent.
  list.launch = {0, 0, 1, 2, 2};
  d = build_task_dependencies(list, SectionMatch::EXACT);
  CHECK(d.launch_group == std::vector<std::int32_t>{0, 0, 1, 2, 2});
  list.launch = {0, 0, 1, 1, 2};
  const auto msg = message_of([&] { build_task_dependencies(list, SectionMatch::EXACT); });
  CHECK(msg.find("task 3 ('m') in launch group 1 depends on task 2 ('m') in launch group 1 (RAW)") !=
        std::string::npos);
}

TEST_CASE("task sections: bad input names the task and section") {
  const auto bad = [](Section s) {
    return message_of([&] { build_task_dependencies(tasks({{}, {sec(0, 0, 1, IN), s}}), SectionMatch::EXACT); });
  };
  CHECK(bad(sec(0, 5, 3, IN)).find("task 1 ('k'), section 1 (a[5:3]): lo > hi") != std::string::npos);
  CHECK(bad(sec(0, -1, 3, IN)).find("section 1 (a[-1:3]): lo must be >= 0") != std::string::npos);
  CHECK(bad(sec(1, 90, 101, OUT)).find("(b[90:101]): ends past the array's 100 elements") != std::string::npos);
  CHECK(bad(sec(7, 0, 1, IN)).find("unknown array id 7") != std::string::npos);
  auto list = tasks({{}});
  list.kind = {5};
  CHECK(message_of([&] { list.validate(); }).find("task 0: kind id 5") != std::string::npos);
  // An empty task list is valid and has no edges.
  const auto none = build_task_dependencies(tasks({}), SectionMatch::OVERLAP);
  CHECK(none.parent.empty());
  CHECK(none.launch_group.empty());
}

TEST_CASE("task sections: match and mode names") {
  CHECK(section_match("overlap") == SectionMatch::OVERLAP);
  CHECK(section_mode("inout") == SectionMode::INOUT);
  CHECK(message_of([] { section_match("exakt"); }).find("did you mean 'exact'") != std::string::npos);
}
