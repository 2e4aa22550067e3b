#pragma once

namespace tbdse {
class SchemeRegistry;
// wireframe (docs/MODELS.md §3).
void register_wireframe_schemes(SchemeRegistry& registry);
}  // namespace tbdse
