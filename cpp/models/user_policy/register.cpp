#include "models/user_policy/register.hpp"

#include "models/registry.hpp"
#include "models/user_policy/user_policy.hpp"

namespace tbdse {

void register_user_policy_schemes(SchemeRegistry& registry) {
  registry.add(describe_scheme<UserPolicyParams, UserPolicyScheme>(
      "user_policy",
      "a user's policy (priority, SM choice, throttle) on dataflow_ideal's single launch",
      "docs/policies.md", UserPolicyScheme::stats()));
}

}  // namespace tbdse
