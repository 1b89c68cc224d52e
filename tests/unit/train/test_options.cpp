// test_options.cpp: rlx.train's option declarations (engine/train/options.h): every TrainConfig
// field is declared or named internal, the reader's words and rules, and what reads the
// declarations (the wire, the echo, the export to Lua).
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "store/records.h"
#include "train/data_parallel.h"
#include "train/options.h"

using namespace rlx::train;

namespace {

// TrainConfig's fields that are no option (wire.cpp's RLX_TRAIN_CONFIG_INTERNAL_FIELDS).
const std::set<std::string> kInternal = {"stability", "max_extra_iters", "warmup_auto"};

// The member names of struct TrainConfig as trainer.h writes them ("double lr = 0.1, momentum =
// 0.9;" is two), read from the source: C++ cannot list a struct's members.
std::set<std::string> train_config_fields() {
  std::ifstream in(std::string(RLX_SOURCE_DIR) + "/engine/train/trainer.h");
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const size_t from = all.find("struct TrainConfig {");
  const size_t to = all.find("\n};", from);
  REQUIRE(from != std::string::npos);
  std::set<std::string> names;
  std::istringstream body(all.substr(from, to - from));
  std::string line;
  static const std::regex decl(R"(^\s*[A-Za-z_][\w:<>]*\s+(.*);)");
  static const std::regex name(R"((?:^|,)\s*([a-z_][a-z0-9_]*)\s*(?:=|$))");
  while (std::getline(body, line)) {
    line = line.substr(0, line.find("//"));
    std::smatch m;
    if (!std::regex_search(line, m, decl)) continue;
    std::string rest = m[1];
    rest = std::regex_replace(rest, std::regex(R"(\"[^\"]*\")"), "s");  // "resnet18" holds no comma
    for (std::sregex_iterator it(rest.begin(), rest.end(), name), end; it != end; ++it)
      names.insert((*it)[1]);
  }
  return names;
}

GivenOptions given(const nlohmann::json& values) {
  GivenOptions g;
  g.values = values;
  if (!g.values.contains("model")) g.values["model"] = "resnet18";
  return g;
}

}  // namespace

TEST_CASE("options: every TrainConfig field is declared or internal") {
  const std::set<std::string> fields = train_config_fields();
  CHECK(fields.size() >= 35);  // the parse found the struct
  for (const std::string& f : fields) {
    INFO("TrainConfig::"
         << f << ": declare it in engine/train/options.cpp (or add it to the wire's internal fields)");
    CHECK((find_option(f) != nullptr || kInternal.count(f) == 1));
  }
  for (const OptionDecl& d : option_decls()) {
    INFO(d.name);
    if (d.get) CHECK(fields.count(d.name) == 1);  // a field of its own name (the wire's key)
  }
}

TEST_CASE("options: each declaration says what the front ends and the docs need") {
  std::set<std::string> seen;
  for (const OptionDecl& d : option_decls()) {
    INFO(d.name);
    CHECK(seen.insert(d.name).second);
    CHECK(!d.type.empty());
    CHECK(!d.doc.empty());
    CHECK(static_cast<bool>(d.read));
    CHECK(d.flag.empty() == d.help.empty());
    if (d.get && d.default_text.empty() && d.unset.is_null()) CHECK(d.default_value == d.get(TrainConfig{}));
    for (const auto* rules : {&d.excludes, &d.needs})
      for (const OptionRule& r : *rules) CHECK(find_option(r.option) != nullptr);
    if (!d.at_least.empty()) CHECK(find_option(d.at_least) != nullptr);
    if (!d.store_column.empty()) {
      bool stored = false;
      for (const auto& c : rlx::store::run_columns()) stored = stored || d.store_column == c.name;
      CHECK(stored);  // a column of the runs table (engine/store/records.cpp)
    }
  }
}

TEST_CASE("options: the reader's words are every native's") {
  CHECK_THROWS_WITH(read_options(given({{"batch", 0}})), "option 'batch' must be an integer >= 1, got 0");
  CHECK_THROWS_WITH(read_options(given({{"iters", "3"}})),
                    "option 'iters' must be an integer >= 1, got \"3\"");
  CHECK_THROWS_WITH(read_options(given({{"lr", 0}})), "option 'lr' must be a number > 0, got 0");
  CHECK_THROWS_WITH(read_options(given({{"augment", "no"}})),
                    "option 'augment' must be true or false, got \"no\"");
  CHECK_THROWS_WITH(read_options(given({{"precision", "fp8"}})),
                    "option 'precision' must be one of amp, bf16, fp32, got \"fp8\"");
  CHECK_THROWS_WITH(read_options(given({{"ranks", 2000}})), "option 'ranks' must be at most 1024, got 2000");
  CHECK_THROWS_WITH(read_options(given({{"target_ci", 2}})),
                    "option 'target_ci' must be a fraction below 1 (0.02 = +/-2 %), got 2");
  CHECK_THROWS_WITH(read_options(GivenOptions{}),
                    "option 'model' is required: a built-in name (rlx.model.list()) or a model table");
  GivenOptions opaque = given({});
  opaque.opaque["batch"] = "function";
  CHECK_THROWS_WITH(read_options(opaque), "option 'batch' must be an integer >= 1, got a function");
  CHECK_THROWS_WITH(read_options(given({{"min_stable", {{"drfit", 0.1}}}})),
                    "option 'min_stable': unknown option 'drfit' (valid options: cv, drift, max_extra)");
  CHECK_THROWS_WITH(read_options(given({{"min_stable", {{"cv", 0}}}})),
                    "option 'min_stable': option 'cv' must be a number > 0, got 0");
}

TEST_CASE("options: the rules between options are the declarations'") {
  CHECK_THROWS_WITH(
      read_options(given({{"target_ci", 0.05}, {"iters", 5}})),
      "option 'iters' is a fixed count; with target_ci the run measures until precise (bound it "
      "with max_iters, max_seconds)");
  CHECK_THROWS_WITH(read_options(given({{"max_iters", 5}})),
                    "option 'max_iters' applies with target_ci only (e.g. target_ci = 0.02)");
  CHECK_THROWS_WITH(read_options(given({{"target_ci", 0.05}, {"min_iters", 6}, {"max_iters", 3}})),
                    "option 'max_iters' must be >= min_iters (6), got 3");
  CHECK_THROWS_WITH(read_options(given({{"target_ci", 0.05}, {"min_iters", 200}})),
                    "option 'max_iters' must be >= min_iters (200), got 100");
  CHECK_THROWS_WITH(read_options(given({{"warmup", 2}, {"max_warmup", 3}})),
                    "option 'max_warmup' applies with warmup = \"auto\" only");
  CHECK_THROWS_WITH(read_options(given({{"counters", true}, {"cuda_graphs", true}})),
                    Catch::StartsWith("option 'counters' cannot be combined with cuda_graphs"));
  CHECK_THROWS_WITH(read_options(given({{"counters", true}, {"counter_iters", 0}})),
                    Catch::StartsWith("option 'counter_iters' must be >= 1 when counters are collected"));
  // A C++ caller's config meets the same rules (validate).
  TrainConfig c;
  c.target_ci = 0.05;
  c.min_stable = true;
  CHECK_THROWS_WITH(validate(c), Catch::StartsWith("option 'min_stable' extends a fixed iters"));
}

TEST_CASE("options: defaults decided by other options") {
  const TrainRequest fixed = read_options(given({}));
  CHECK_FALSE(fixed.config.warmup_auto);
  CHECK(fixed.config.iters == TrainConfig{}.iters);
  const TrainRequest targeted = read_options(given({{"target_ci", 0.02}}));
  CHECK(targeted.config.warmup_auto);  // warm-up until steady with a precision target
  const TrainRequest groups = read_options(given({{"counters", {"a", "b"}}}));
  CHECK(groups.counters);
  CHECK(groups.counter_groups == std::vector<std::string>{"a", "b"});
}

TEST_CASE("options: every declared field crosses the wire and is echoed as asked") {
  TrainConfig c;
  c.augment = false;
  c.tf32 = true;
  c.seed = 7;
  c.rendezvous_port = 29500;
  const nlohmann::json wire = config_to_wire(c);
  for (const OptionDecl& d : option_decls())
    if (d.get) CHECK(wire.contains(d.name));
  const TrainConfig back = config_from_wire(nlohmann::json::parse(wire.dump()));
  for (const OptionDecl& d : option_decls()) {
    INFO(d.name);
    if (d.get) CHECK(d.get(back) == d.get(c));
  }
  nlohmann::json echo;
  echo_options(c, echo);
  CHECK(echo["augment"] == false);
  CHECK(echo["tf32"] == true);
  CHECK_FALSE(echo.contains("rendezvous_port"));  // where, not what: not echoed
  CHECK_FALSE(echo.contains("target_ci"));        // unset
  CHECK_FALSE(echo.contains("max_iters"));        // needs target_ci
}

TEST_CASE("options: the export holds every declaration") {
  const nlohmann::json all = options_json();
  REQUIRE(all.size() == option_decls().size());
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i]["name"] == option_decls()[i].name);
  const nlohmann::json& precision = all[find_option("precision") - option_decls().data()];
  CHECK(precision["one_of"] == nlohmann::json::array({"fp32", "amp", "bf16"}));
}
