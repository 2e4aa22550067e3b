#pragma once

namespace tbdse {
class SchemeRegistry;
// global_barrier, cdp, deplinks, dataflow_ideal (docs/MODELS.md §2).
void register_baseline_schemes(SchemeRegistry& registry);
}  // namespace tbdse
