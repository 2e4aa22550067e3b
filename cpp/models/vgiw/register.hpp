// Registers the control-flow machines' schemes: simt, sgmf, vgiw.
#pragma once

namespace tbdse {

class SchemeRegistry;
void register_vgiw_schemes(SchemeRegistry& registry);

}  // namespace tbdse
