#include "models/juggler/register.hpp"

#include "models/juggler/juggler.hpp"
#include "models/registry.hpp"

namespace tbdse {

void register_juggler_schemes(SchemeRegistry& registry) {
  registry.add(describe_scheme<JugglerParams, JugglerScheme>(
      "juggler",
      "persistent worker TBs with one task queue each, dependencies resolved on the GPU, "
      "lrr / grr / lf queue insertion (one kernel launch)",
      "Juggler (PPoPP 2018) §5", juggler_stats()));
}

}  // namespace tbdse
