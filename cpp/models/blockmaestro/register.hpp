#pragma once

namespace tbdse {

class SchemeRegistry;
void register_blockmaestro_schemes(SchemeRegistry& registry);

}  // namespace tbdse
