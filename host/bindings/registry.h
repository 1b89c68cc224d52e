// registry.h: the list of native binding modules. Each open_<name> creates rlx._core.<name>;
// the Lua module scripts/rlx/<name>.lua (or init.lua) turns it into the public rlx.<name>.
#pragma once
extern "C" {
#include <lua.h>
}

namespace rlx::bindings {
void open_host(lua_State* L);      // bind_host.cpp: versions, embedded module list
void open_model(lua_State* L);     // bind_model.cpp: model zoo and complexity
void open_train(lua_State* L);     // bind_train.cpp: training runs, devices
void open_db(lua_State* L);        // bind_db.cpp: SQLite connections and the study store
void open_env(lua_State* L);       // bind_env.cpp: environment capture
void open_peaks(lua_State* L);     // bind_peaks.cpp: datasheet and measured peaks
void open_roofline(lua_State* L);  // bind_roofline.cpp: roofline points
void open_plot(lua_State* L);      // bind_plot.cpp: Cairo charts
void open_counters(lua_State* L);  // bind_counters.cpp: CUPTI, perf_event, ncu import
void open_fs(lua_State* L);        // bind_fs.cpp: atomic, checked file outputs
void open_report(lua_State* L);    // bind_report.cpp: Markdown -> self-contained HTML
void open_term(lua_State* L);      // bind_term.cpp: the terminal's width, terminal queries
void open_stats(lua_State* L);     // bind_stats.cpp: Student's t, CIs, percentiles
void open_csv(lua_State* L);       // bind_csv.cpp: a user's CSV read a record at a time

void open_all(lua_State* L);
}  // namespace rlx::bindings
