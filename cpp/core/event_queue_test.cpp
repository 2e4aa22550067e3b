#include "core/event_queue.hpp"

#include <doctest/doctest.h>

using tbdse::EventQueue;

TEST_CASE("events come out by time, then priority, then insertion order") {
  EventQueue q;
  q.push(30, 0, 1, 100);  // later time
  q.push(10, 1, 1, 200);  // same time as the next two, lower priority (runs after prio 0)
  q.push(10, 0, 1, 300);  // first: earliest time, priority 0
  q.push(10, 0, 1, 400);  // same time and priority: after 300 because posted later
  q.push(20, 5, 1, 500);
  std::vector<std::int64_t> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  CHECK(order == std::vector<std::int64_t>{300, 400, 200, 500, 100});
}

TEST_CASE("insertion order breaks ties among many equal events") {
  EventQueue q;
  for (int i = 0; i < 1000; ++i) q.push(5, 0, 1, i);
  for (int i = 0; i < 1000; ++i) CHECK(q.pop().payload == i);
}
