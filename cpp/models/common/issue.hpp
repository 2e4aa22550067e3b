// Issuing ready tasks in a ReadyQueue's order to SMs chosen round robin, under
// the level bound of Wireframe's LVL policy (§4.3); shared by the schemes that
// issue from a ready set (dataflow_ideal, wireframe).
#pragma once

#include <cstdint>

#include "core/engine.hpp"
#include "models/common/ready_queue.hpp"
#include "models/common/running_levels.hpp"

namespace tbdse {

enum class IssueStop { Empty, LevelBound, NoRoom };

// Issues from `ready` until it is empty, no SM has room for its first task, or
// (level_bound >= 0; -1 = no bound) that task's level is more than level_bound above the
// lowest running one; calls on_issue(t) for each task issued.  Under LVL the queue is
// in lrr order, whose first task has the lowest ready level: if it may not
// start, none may.
template <class OnIssue>
IssueStop issue_ready(Engine& engine, ReadyQueue& ready, RunningLevels& running,
                      std::int64_t level_bound, OnIssue&& on_issue) {
  const TaskGraph& g = engine.graph();
  while (!ready.empty()) {
    const TaskId t = ready.front();
    if (level_bound >= 0 && !running.allows(g.level(t), level_bound)) return IssueStop::LevelBound;
    if (!engine.issue_round_robin(t)) return IssueStop::NoRoom;
    ready.pop();
    running.add(g.level(t));
    on_issue(t);
  }
  return IssueStop::Empty;
}

}  // namespace tbdse
