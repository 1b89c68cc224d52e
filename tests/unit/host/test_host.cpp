// test_host.cpp: the Lua host itself: --set value parsing, embedded modules with real chunk names,
// and require("rlx") returning the global.
#include <catch2/catch.hpp>

#include "embedded_scripts.h"
#include "lua_host.h"

TEST_CASE("set values that look like numbers become numbers") {
  double v = 0;
  CHECK(rlx::host::parse_number("21", &v));
  CHECK(v == 21);
  CHECK(rlx::host::parse_number("2.5e3", &v));
  CHECK(v == 2500);
  CHECK_FALSE(rlx::host::parse_number("21x", &v));
  CHECK_FALSE(rlx::host::parse_number("", &v));
  CHECK_FALSE(rlx::host::parse_number("resnet50", &v));
  // Only decimal numbers: what strtod also accepts stays a string (issue 16, issue 17 item 12).
  for (const char* s : {"inf", "-inf", "nan", "NaN", "0x10", " 5", "5 ", "1e999", "infinity", "1e", "."})
    CHECK_FALSE(rlx::host::parse_number(s, &v));
  CHECK(rlx::host::parse_number("-0.5", &v));
  CHECK(v == -0.5);
  CHECK(rlx::host::parse_number(".5", &v));
  CHECK(v == 0.5);
}

TEST_CASE("embedded modules are named after their files") {
  bool have_init = false;
  for (const auto& s : rlx::host::embedded_scripts()) {
    if (std::string(s.module) == "rlx") {
      have_init = true;
      CHECK(std::string(s.path) == "scripts/rlx/init.lua");
    }
    CHECK(std::string(s.path).rfind("scripts/rlx/", 0) == 0);
  }
  CHECK(have_init);
}

TEST_CASE("the host exposes rlx as a global and as require('rlx')") {
  rlx::host::LuaHost host;
  host.set_params({{"n", "21"}, {"name", "resnet50"}, {"on", "true"}});
  CHECK(host.run_string("assert(require('rlx') == rlx)\n"
                        "assert(rlx.params.n == 21 and rlx.params.name == 'resnet50' and rlx.params.on == true)\n"
                        "assert(type(rlx.version().luajit) == 'string')",
                        "=test") == rlx::host::kExitOk);
  CHECK(host.run_string("error('x')", "=test") == rlx::host::kExitScriptError);
  CHECK(host.run_string("rlx.fail(2, 'usage')", "=test") == rlx::host::kExitUsage);
  // --set values keep their text in rlx.params_text (labels are names, whatever they look like).
  host.set_params({{"env", "4090"}, {"x", "0x10"}});
  CHECK(host.run_string("assert(rlx.params.env == 4090 and rlx.params_text.env == '4090')\n"
                        "assert(rlx.params.x == '0x10')",
                        "=test") == rlx::host::kExitOk);
}
