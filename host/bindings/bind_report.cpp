// bind_report.cpp: rlx._core.report, Markdown -> HTML for study reports (engine/report). The
// report itself is composed in Lua (scripts/rlx/report/init.lua); this file converts options only.
#include "lua_bind.h"
#include "registry.h"
#include "report/markdown.h"

namespace rlx::bindings {
namespace {

// html(markdown) -> the HTML fragment.
int html(lua_State* L) {
  const std::string md = lua::check_string(L, 1);
  const std::string out = report::markdown_to_html(md);
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

// page{markdown=, title=, base_dir=, embed_images=} -> {html=, images={paths embedded}}
int page(lua_State* L) {
  lua::Options o(L, 1, {"markdown", "title", "base_dir", "embed_images"});
  report::PageOptions opts;
  opts.title = o.str("title", "rlx report");
  opts.base_dir = o.str("base_dir", ".");
  opts.embed_images = o.boolean("embed_images", true);
  const report::Page p = report::render_page(o.required_str("markdown"), opts);
  lua::push_json(L, {{"html", p.html}, {"images", p.images}});
  return 1;
}

int version(lua_State* L) {
  const std::string v = report::cmark_gfm_version();
  lua_pushlstring(L, v.data(), v.size());
  return 1;
}

}  // namespace

void open_report(lua_State* L) {
  lua::register_module(
      L, "report",
      {{"html", lua::guarded<html>}, {"page", lua::guarded<page>}, {"version", lua::guarded<version>}});
}

}  // namespace rlx::bindings
