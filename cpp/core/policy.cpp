#include "policy.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>
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

// Dense ranks of the static priorities, highest first: a run then keeps its
// ready tasks in a bitset of ranks (O(1) amortised) instead of a heap.
void rank_priorities(UserPolicy& p) {
  const std::vector<double>& v = p.priorities;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (std::isnan(v[i]))
      throw ConfigError("policy '" + p.name + "': static priority of task " + std::to_string(i) +
                        " is NaN");
  std::vector<std::int32_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return v[a] > v[b]; });
  p.priority_rank.assign(v.size(), 0);
  std::int32_t rank = -1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || v[order[i]] != v[order[i - 1]]) ++rank;
    p.priority_rank[order[i]] = rank;
  }
  p.priority_ranks = rank + 1;
}

}  // namespace

void register_policy(std::uint64_t key, std::shared_ptr<UserPolicy> policy) {
  if (key == 0 || key > kMaxPolicyKey)
    throw ConfigError("policy key " + std::to_string(key) + " is out of range [1, 2^53)");
  if (!policy) throw ConfigError("policy key " + std::to_string(key) + ": no policy given");
  if (!policy->priorities.empty() && policy->priority)
    throw ConfigError("policy '" + policy->name +
                      "': give static priorities or a priority function, not both");
  rank_priorities(*policy);
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
