// collector_stub.cpp: placeholder make_collector until the counters backends land (issue 8).
#include "counters/collector.h"

namespace rlx::counters {
namespace {
class Unavailable : public Collector {
 public:
  nlohmann::json result() const override {
    return {{"source", "none"}, {"available", false}, {"reason", "counters are not built yet"}};
  }
};
}  // namespace
std::unique_ptr<Collector> make_collector(const std::string&, const std::vector<std::string>&) {
  return std::make_unique<Unavailable>();
}
}  // namespace rlx::counters
