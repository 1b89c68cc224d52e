// collector.cpp: picks the counters backend for a device (perf_event for "cpu", CUPTI for
// "cuda[:N]") and answers "what can be measured here, and if not, why" for rlx counters --list.
#include "counters/collector.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "counters/cupti_backend.h"
#include "counters/metrics.h"
#include "counters/perf_collector.h"
#include "util/coded_error.h"

namespace rlx::counters {

namespace {
// -1 for "cpu", else the CUDA device index.
int parse_device(const std::string& device) {
  if (device == "cpu") return -1;
  if (device == "cuda") return 0;
  if (device.rfind("cuda:", 0) == 0 && device.size() > 5 &&
      std::all_of(device.begin() + 5, device.end(), [](char c) { return c >= '0' && c <= '9'; }) && device.size() < 12) {
    return std::stoi(device.substr(5));
  }
  throw std::invalid_argument(fmt::format("unknown device '{}' (use \"cpu\", \"cuda\" or \"cuda:N\")", device));
}
}  // namespace

std::unique_ptr<Collector> make_collector(const std::string& device, const std::vector<std::string>& groups) {
  int index = parse_device(device);
  if (index < 0) return make_perf_collector(groups);
  std::vector<std::string> g = groups;
  bool per_kernel = false;
  auto it = std::find(g.begin(), g.end(), "per_kernel");
  if (it != g.end()) {
    per_kernel = true;
    g.erase(it);
  }
  return make_cupti_collector(index, cuda_metrics_for(g), per_kernel);
}

nlohmann::json availability(const std::string& device) {
  int index = parse_device(device);
  nlohmann::json j;
  j["device"] = device;
  if (index < 0) {
    j["source"] = "perf_event";
    bool any = false;
    for (const auto& [name, why] : probe_perf_events()) any = any || why.empty();
    j["available"] = any;
    if (!any) j["reason"] = "no perf_event counter can be opened here (see rlx counters --list)";
    return j;
  }
  j["source"] = "cupti";
  nlohmann::json info = cupti_device_info(index);
  j["available"] = info["available"];
  if (info.contains("reason")) j["reason"] = info["reason"];
  if (info.contains("name")) j["name"] = info["name"];
  if (info.contains("chip")) j["chip"] = info["chip"];
  return j;
}

nlohmann::json list_metrics(const std::string& device, const std::string& chip) {
  int index = parse_device(device);
  nlohmann::json j = availability(device);
  nlohmann::json metrics = nlohmann::json::array();
  if (index < 0) {
    if (!chip.empty()) throw std::invalid_argument("option chip applies to cuda devices only");
    const std::vector<std::string> hw = {"cycles", "instructions", "cache_references", "cache_misses", "branches",
                                         "branch_misses"};
    for (const auto& [name, why] : probe_perf_events()) {
      bool is_hw = std::find(hw.begin(), hw.end(), name) != hw.end();
      nlohmann::json m{{"name", name}, {"group", is_hw ? "hardware" : "software"}, {"supported", why.empty()}};
      if (!why.empty()) m["reason"] = why;
      metrics.push_back(m);
    }
    j["metrics"] = metrics;
    return j;
  }
  // CUDA: with a chip (given, or the device's), validate every name and plan one-pass groups.
  std::string use_chip = !chip.empty() ? chip : (j.contains("chip") ? j["chip"].get<std::string>() : "");
  nlohmann::json plan;
  std::string plan_error, plan_code;
  if (!use_chip.empty()) {
    std::vector<std::string> names;
    for (const auto& m : cuda_metrics()) names.push_back(m.name);
    try {
      plan = cupti_host_plan(use_chip, names);
    } catch (const std::exception& e) {
      plan_error = e.what();
      if (const auto* coded = dynamic_cast<const util::CodedError*>(&e)) plan_code = coded->code;
    }
  }
  // A chip given that CUPTI does not know keeps its code ("unknown_chip") for the caller.
  if (!chip.empty() && !plan_error.empty()) throw util::CodedError(plan_error, plan_code);
  for (const auto& m : cuda_metrics()) {
    nlohmann::json e{{"name", m.name}, {"group", m.group}};
    if (!plan.is_null()) {
      bool valid = std::find(plan["valid"].begin(), plan["valid"].end(), m.name) != plan["valid"].end();
      bool ok = valid && !plan["separate"].contains(m.name);
      e["supported"] = ok && (j["available"].get<bool>() || !chip.empty());
      if (!valid) e["reason"] = plan["invalid"].value(m.name, std::string("not valid on this chip"));
      else if (!ok) e["reason"] = plan["separate"][m.name];
      else if (!e["supported"].get<bool>()) e["reason"] = j.value("reason", std::string("device unavailable"));
      if (plan["units"].contains(m.name)) e["unit"] = parse_unit(plan["units"][m.name].get<std::string>()).base;
    } else {
      e["supported"] = false;
      e["reason"] = j.value("reason", plan_error);
    }
    metrics.push_back(e);
  }
  j["metrics"] = metrics;
  if (!plan.is_null()) {
    j["chip"] = use_chip;
    j["passes"] = plan["passes"];
    j["groups"] = plan["groups"];
    j["group_passes"] = plan["group_passes"];
  }
  return j;
}

}  // namespace rlx::counters
