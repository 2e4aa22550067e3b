#include "policy.hpp"

#include <mutex>
#include <unordered_map>

#include "errors.hpp"

namespace tbdse {

namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<std::uint64_t, UserPolicyPtr> policies;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_policy(std::uint64_t key, UserPolicyPtr policy) {
  if (key == 0 || key > kMaxPolicyKey)
    throw ConfigError("policy key " + std::to_string(key) + " is out of range [1, 2^53)");
  if (!policy) throw ConfigError("policy key " + std::to_string(key) + ": no policy given");
  if (!policy->priorities.empty() && policy->priority)
    throw ConfigError("policy '" + policy->name +
                      "': give static priorities or a priority function, not both");
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.policies[key] = std::move(policy);
}

UserPolicyPtr find_policy(std::uint64_t key) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto it = r.policies.find(key);
  if (it == r.policies.end())
    throw ConfigError("scheme 'user_policy': no policy is registered under key " +
                      std::to_string(key) +
                      "; make one with tbdse.Policy(...) and pass it as the scheme");
  return it->second;
}

}  // namespace tbdse
