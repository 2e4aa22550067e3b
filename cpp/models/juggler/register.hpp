// Registers the Juggler runtime scheme: juggler.
#pragma once

namespace tbdse {

class SchemeRegistry;
void register_juggler_schemes(SchemeRegistry& registry);

}  // namespace tbdse
