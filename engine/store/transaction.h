// transaction.h: a scoped BEGIN IMMEDIATE ... COMMIT for the study API (runs.cpp, claims.cpp).
#pragma once

#include <fmt/format.h>

#include "store/store.h"

namespace rlx::store {

// Rolled back when the scope is left by an exception. With wait_for_lock, a lock another process
// holds longer than the busy timeout is waited out (Store::begin_waiting) instead of failing:
// used where failing would throw away a run that has already trained.
class Transaction {
 public:
  Transaction(Store& s, const char* what, bool wait_for_lock = false) : s_(s) {
    if (s_.in_transaction())
      throw Error(fmt::format("{} cannot run inside an open transaction (database '{}')", what, s_.path()));
    if (wait_for_lock) s_.begin_waiting();
    else s_.begin();
  }
  ~Transaction() {
    if (!done_) try {
        s_.rollback();
      } catch (...) {
      }
  }
  void commit() {
    s_.commit();
    done_ = true;
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

 private:
  Store& s_;
  bool done_ = false;
};

}  // namespace rlx::store
