// What a Workload carries when its simulator is not the TB engine: a graph
// with an operator for the worklist machine, a control-flow kernel for VGIW.
// Immutable and shared, like a task graph: a sweep over thousands of
// configurations refers to a handful of these.  The core knows only this
// interface; each model folder defines its own input and downcasts to it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace tbdse {

class ModelInput {
 public:
  virtual ~ModelInput() = default;
  // The workload kind a scheme must declare to simulate it ("worklist", "cfg").
  virtual std::string kind() const = 0;
  // Stable digest of the whole input: part of the configuration hash and of
  // the keys of the run's random draws.
  virtual std::uint64_t content_hash() const = 0;
  // Relative cost of simulating it (used to size sweep chunks), e.g. nodes + edges.
  virtual double weight() const = 0;
  // Sizes worth a result column each ("nodes", "edges", ...), as workload.<name>.
  virtual std::map<std::string, double> sizes() const = 0;
};

using ModelInputPtr = std::shared_ptr<const ModelInput>;

}  // namespace tbdse
