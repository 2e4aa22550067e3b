// Registers the worklist machine's schemes: hwwl, topology, data.
#pragma once

namespace tbdse {

class SchemeRegistry;
void register_hwwl_schemes(SchemeRegistry& registry);

}  // namespace tbdse
