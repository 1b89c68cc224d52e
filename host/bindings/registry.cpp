// registry.cpp: opens every native binding module, in one place, at state creation.
#include "registry.h"

namespace rlx::bindings {
void open_all(lua_State* L) {
  open_host(L);
  open_model(L);
  open_train(L);
  open_db(L);
  open_env(L);
  open_peaks(L);
  open_roofline(L);
  open_plot(L);
  open_counters(L);
  open_fs(L);
  open_report(L);
  open_term(L);
  open_stats(L);
  open_csv(L);
}
}  // namespace rlx::bindings
