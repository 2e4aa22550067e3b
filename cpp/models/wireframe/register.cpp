#include "models/wireframe/register.hpp"

#include "models/registry.hpp"
#include "models/wireframe/wireframe.hpp"

namespace tbdse {

void register_wireframe_schemes(SchemeRegistry& registry) {
  registry.add(describe_scheme<WireframeParams, WireframeScheme>(
      "wireframe",
      "one launch; a dependency-aware TB scheduler resolving dependencies from a finite "
      "Dependency Graph Buffer, LRR or level-bounded issue",
      "Wireframe (MICRO-50 2017) §3-4", WireframeScheme::stats()));
}

}  // namespace tbdse
