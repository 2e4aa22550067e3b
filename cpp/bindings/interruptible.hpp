// Long C++ work that Ctrl-C can stop.  Python runs signal handlers only when
// C++ returns, so the work runs on a helper thread (GIL released) while the
// calling thread wakes every 50 ms, takes the GIL and asks Python for pending
// signals; on one it sets the cancel flag that the work polls
// (core/run_control.hpp), waits for the work to stop and raises the signal's
// exception (KeyboardInterrupt), whatever the work returned.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>

namespace tbdse::bindings {

template <class F>
auto interruptible(F&& work) {
  namespace py = pybind11;
  using R = std::invoke_result_t<F&, const std::atomic<bool>&>;
  std::atomic<bool> cancel{false};
  std::optional<R> result;
  std::exception_ptr error;
  bool signalled = false;
  {
    py::gil_scoped_release release;
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread worker([&] {
      try {
        result.emplace(work(cancel));
      } catch (...) {
        error = std::current_exception();
      }
      const std::lock_guard lock(m);
      done = true;
      cv.notify_one();
    });
    std::unique_lock lock(m);
    while (!cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      if (signalled) continue;  // cancelled: only wait for the work to stop
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        // A handler that raised leaves its exception set on this thread.
        signalled = PyErr_CheckSignals() != 0;
      }
      if (signalled) cancel.store(true, std::memory_order_relaxed);
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (signalled) throw py::error_already_set();
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

}  // namespace tbdse::bindings
