#pragma once

namespace tbdse {

class SchemeRegistry;

// The scheme 'user_policy': a user's policy (core/policy.hpp) on dataflow_ideal's launch.
void register_user_policy_schemes(SchemeRegistry& registry);

}  // namespace tbdse
